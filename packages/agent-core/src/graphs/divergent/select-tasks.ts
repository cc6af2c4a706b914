import type { Language } from '../../domain/enums.ts';
import type { DivergentSkills } from '../../ports/divergent-skills-port.ts';
import { DIVERGENT_NOTES } from './notes.ts';
import type { PlannedTask } from './schemas.ts';
import type { DroppedTask } from './state.ts';
import type { AddedTask } from './steer.ts';

/**
 * The tasks a level runs, from the person's added tasks and a proposed list (the planner's, or the person's edit
 * of it at the review): those whose skill is available, the added ones ranked highest (priority 5) and run first,
 * then the highest priority first (ties keep the planner's order), at most `max`; the others are dropped with the
 * reason, never silently.
 */
export function selectLevelTasks(
  added: AddedTask[],
  proposed: PlannedTask[],
  max: number,
  skills: DivergentSkills,
  language: Language,
  level: number,
): { run: PlannedTask[]; dropped: DroppedTask[] } {
  const all: PlannedTask[] = [...added.map((t) => ({ ...t, priority: 5 })), ...proposed];
  const offered = new Set(skills.available());
  const dropped: DroppedTask[] = [];
  const usable: PlannedTask[] = [];
  for (const task of all) {
    if (offered.has(task.skill)) usable.push(task);
    else {
      const why = skills.unavailableReason(task.skill, language) ?? task.skill;
      dropped.push({ ...task, level, reason: DIVERGENT_NOTES.skillMissing(language, why) });
    }
  }
  const ranked = usable.map((task, i) => ({ task, i })).sort((a, b) => b.task.priority - a.task.priority || a.i - b.i);
  const run = ranked.slice(0, max).map((r) => r.task);
  for (const { task } of ranked.slice(max))
    dropped.push({ ...task, level, reason: DIVERGENT_NOTES.overLimit(language, max) });
  // The person's own tasks run even when the model ranked its own as high.
  const pinned = (t: PlannedTask) => all.indexOf(t) < added.length;
  return { run: [...run.filter(pinned), ...run.filter((t) => !pinned(t))], dropped };
}
