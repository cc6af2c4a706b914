import type { Language } from '../../domain/enums.ts';

/** What the person reads about how a session ended or why a task did not run, in the map's language. */
export const DIVERGENT_NOTES = {
  overLimit: (l: Language, max: number) =>
    l === 'zh' ? `超出每层最多 ${max} 个并行任务的限制` : `over the limit of ${max} parallel tasks per level`,
  skillMissing: (l: Language, reason: string) =>
    l === 'zh' ? `技能不可用：${reason}` : `skill not available: ${reason}`,
  thresholdReached: (l: Language, score: number, threshold: number) =>
    l === 'zh'
      ? `完成度 ${score} 达到阈值 ${threshold}，已生成最终输出。`
      : `The completion score ${score} reached the threshold ${threshold}; the final output is written.`,
  levelsExhausted: (l: Language, levels: number, score: number | null, threshold: number) =>
    l === 'zh'
      ? `已完成 ${levels} 层仍未达到阈值 ${threshold}（最后得分 ${score ?? '无'}），最终输出基于现有结果生成。`
      : `Stopped after ${levels} levels below the threshold ${threshold} (last score ${score ?? 'none'}); the final output is written from what was found.`,
  emptyPlan: (l: Language) =>
    l === 'zh'
      ? '规划器没有提出新的任务，最终输出基于现有结果生成。'
      : 'The planner proposed no further task; the final output is written from what was found.',
  stopped: (l: Language) =>
    l === 'zh'
      ? '用户停止了发散探索，最终输出基于现有结果生成。'
      : 'The person stopped the session; the final output is written from what was found.',
  budgetExhausted: (l: Language) =>
    l === 'zh'
      ? '导图的 token 预算用完了，发散探索已停止，最终输出基于已完成的结果生成。'
      : "The map's token budget ran out; the session stopped and the final output is written from the finished results.",
  budgetNothingFound: (l: Language) =>
    l === 'zh'
      ? '导图的 token 预算在得到任何结果之前就用完了，发散探索已结束。提高预算后可以重新开始。'
      : "The map's token budget ran out before anything was found; the divergent session has ended. Raise the budget to start again.",
  budgetNoFinal: (l: Language) =>
    l === 'zh'
      ? '导图的 token 预算用完了，无法生成最终输出；发散探索已结束，已完成的结果都保留在导图上。'
      : "The map's token budget ran out before the final output could be written; the divergent session has ended and every finished result stays on the map.",
  taskSkipped: (l: Language) => (l === 'zh' ? '用户跳过了这个任务' : 'skipped by the person'),
  taskStopped: (l: Language) => (l === 'zh' ? '用户停止了发散探索，任务未完成' : 'the person stopped the session'),
  allFailed: (l: Language, level: number) =>
    l === 'zh'
      ? `第 ${level} 层的所有任务都失败了，发散探索已结束。`
      : `Every task of level ${level} failed; the divergent session has ended.`,
  laterLevelFailed: (l: Language, level: number) =>
    l === 'zh'
      ? `第 ${level} 层的所有任务都失败了，最终输出基于之前各层的结果生成。`
      : `Every task of level ${level} failed; the final output is written from the earlier levels' results.`,
  reviewQuestion: (l: Language, level: number) =>
    l === 'zh'
      ? `第 ${level} 层的任务列表：请批准（可编辑）或停止探索。`
      : `The task list of level ${level}: approve it (you may edit it) or stop the session.`,
};
