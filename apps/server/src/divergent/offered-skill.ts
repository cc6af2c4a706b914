import { DIVERGENT_SKILL_NAMES, type DivergentSkillName, type DivergentSkills } from '@thinkingmap/agent-core';
import { QuestionKind } from '@thinkingmap/db';
import { ValidationError } from '../commands/domain-errors.ts';
import { propertyOf } from '../commands/input.ts';

const isSkillName = (skill: string): skill is DivergentSkillName =>
  DIVERGENT_SKILL_NAMES.some((known) => known === skill);

/**
 * Why this server does not offer `skill` to a divergent task (not a skill, or not configured: web search
 * without a provider), or null when it does. The one check of a task the person writes (an added task, an
 * edited review).
 */
export function unofferedSkill(skills: DivergentSkills, skill: string): string | null {
  if (!isSkillName(skill)) return `it is not a skill (the skills are ${DIVERGENT_SKILL_NAMES.join(', ')})`;
  if (skills.available().includes(skill)) return null;
  return `it is not available on this server (${skills.unavailableReason(skill, 'en') ?? skill})`;
}

/**
 * Refuses a divergent review whose edited tasks use a skill this server does not offer, with a
 * ValidationError naming the task and the skill, before the reply is accepted: the question keeps waiting and
 * nothing changes (the run would otherwise only drop the task).
 */
export function checkReviewSkills(kind: string, reply: unknown, skills: DivergentSkills): void {
  if (kind !== QuestionKind.REVIEW_DIVERGENT_TASKS) return;
  const tasks = propertyOf(reply, 'tasks');
  if (!Array.isArray(tasks)) return;
  tasks.forEach((task: unknown, i) => {
    const skill = propertyOf(task, 'skill');
    const why = typeof skill === 'string' ? unofferedSkill(skills, skill) : null;
    if (why)
      throw new ValidationError(
        `reply.tasks.${i}.skill`,
        `the task "${String(propertyOf(task, 'name') ?? i + 1)}" cannot use the skill ${skill}: ${why}`,
      );
  });
}
