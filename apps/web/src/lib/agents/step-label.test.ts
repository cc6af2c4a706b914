import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STEP_LABELS, stepLabel } from './step-label.ts';

const graphsDir = join(dirname(fileURLToPath(import.meta.url)), '../../../../../packages/agent-core/src/graphs');

/** Every step name of every graph in agent-core (`.addNode('name', …)` in each `graphs/<graph>/graph.ts`). */
function graphSteps(): string[] {
  const steps = new Set<string>();
  for (const entry of readdirSync(graphsDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let source: string;
    try {
      source = readFileSync(join(graphsDir, entry.name, 'graph.ts'), 'utf8');
    } catch {
      continue;
    }
    for (const [, name] of source.matchAll(/\.addNode\(\s*['"`](\w+)['"`]/g)) steps.add(name!);
  }
  return [...steps];
}

describe('stepLabel', () => {
  const steps = graphSteps();

  it('should find the steps of the agents’ graphs', () => {
    expect(steps).toEqual(expect.arrayContaining(['restateProblem', 'proposeSubQuestions', 'callChosenTool']));
  });

  it.each(steps)('should say what step %s does in English and Chinese', (step) => {
    expect(STEP_LABELS[step], `no words for the step "${step}"`).toBeDefined();
    for (const language of ['en', 'zh'] as const) {
      const label = stepLabel(step, language);
      expect(label).not.toBe(step);
      expect(label).not.toMatch(/[a-z][A-Z]/);
    }
  });

  it('should never show an unknown step’s internal name', () => {
    expect(stepLabel('mergeSummaries', 'en')).toBe('working');
    expect(stepLabel('mergeSummaries', 'zh')).toBe('处理');
  });
});
