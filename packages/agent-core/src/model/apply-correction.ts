import type { Understanding } from '../schemas/understanding.ts';

/** One field change a person's sentence asks for. */
type Edit =
  | { field: 'title' | 'problem' | 'goal'; value: string }
  | { field: 'constraints'; op: 'add' | 'remove'; value: string };

/**
 * Sentence patterns of a correction, in English and Chinese, each naming the field it changes. Checked in
 * order; the value is the rest of the sentence. Removing comes before adding, so "remove the constraint X"
 * never adds "X".
 */
const PATTERNS: { re: RegExp; edit: (value: string) => Edit }[] = [
  {
    re: /^(?:please\s+)?(?:remove|drop|delete)\s+(?:the\s+)?constraint\s*[:：]?\s*(.+)$/i,
    edit: (value) => ({ field: 'constraints', op: 'remove', value }),
  },
  {
    re: /^(?:请)?(?:去掉|删掉|删除|移除|不要)(?:这个|这条|一个|一条)?约束[:：，,]?\s*(.+)$/,
    edit: (value) => ({ field: 'constraints', op: 'remove', value }),
  },
  {
    re: /^(?:please\s+)?(?:also\s+)?(?:add|include)\s+(?:a\s+|another\s+|the\s+|one\s+more\s+)?constraint\s*[:：,]?\s*(.+)$/i,
    edit: (value) => ({ field: 'constraints', op: 'add', value }),
  },
  {
    re: /^(?:another\s+)?constraint\s*[:：]\s*(.+)$/i,
    edit: (value) => ({ field: 'constraints', op: 'add', value }),
  },
  {
    re: /^(?:请)?(?:再)?(?:加|添加|增加|补充)(?:上)?(?:一个|一条|个|条)?约束[:：，,]?\s*(.+)$/,
    edit: (value) => ({ field: 'constraints', op: 'add', value }),
  },
  { re: /^约束[:：]\s*(.+)$/, edit: (value) => ({ field: 'constraints', op: 'add', value }) },
  {
    re: /^(?:actually,?\s+|no,?\s+|but\s+)?(?:the|my)\s+(?:real\s+|actual\s+)?(?:goal|aim)\s+(?:is|should\s+be)\s*[:：]?\s*(.+)$/i,
    edit: (value) => ({ field: 'goal', value }),
  },
  { re: /^goal\s*[:：]\s*(.+)$/i, edit: (value) => ({ field: 'goal', value }) },
  {
    re: /^(?:其实|实际上|不对[，,]?)?(?:我的)?目标(?:其实|实际上)?(?:应该)?(?:是|为|改为|改成)[:：]?\s*(.+)$/,
    edit: (value) => ({ field: 'goal', value }),
  },
  { re: /^目标[:：]\s*(.+)$/, edit: (value) => ({ field: 'goal', value }) },
  {
    re: /^(?:actually,?\s+|no,?\s+|but\s+)?(?:the|my)\s+(?:real\s+|actual\s+)?(?:problem|question)\s+(?:is|should\s+be)\s*[:：]?\s*(.+)$/i,
    edit: (value) => ({ field: 'problem', value }),
  },
  { re: /^(?:problem|question)\s*[:：]\s*(.+)$/i, edit: (value) => ({ field: 'problem', value }) },
  {
    re: /^(?:其实|实际上|不对[，,]?)?(?:我的)?(?:问题|疑问)(?:其实|实际上)?(?:应该)?(?:是|为|改为|改成)[:：]?\s*(.+)$/,
    edit: (value) => ({ field: 'problem', value }),
  },
  {
    re: /^(?:the\s+)?title\s+(?:is|should\s+be)\s*[:：]?\s*(.+)$/i,
    edit: (value) => ({ field: 'title', value }),
  },
  { re: /^call\s+it\s+(.+)$/i, edit: (value) => ({ field: 'title', value }) },
  { re: /^标题(?:应该)?(?:是|为|改为|改成)[:：]?\s*(.+)$/, edit: (value) => ({ field: 'title', value }) },
];

/** A correction cut into sentences: after CJK sentence marks, at line breaks, after . ; ! ? and a space. */
function sentencesOf(correction: string): string[] {
  return correction
    .split(/(?<=[.;!?])\s+|(?<=[。；！？])|\n+/u)
    .map((s) =>
      s
        .trim()
        .replace(/[.。;；,，]+$/u, '')
        .trim(),
    )
    .filter(Boolean);
}

const unquote = (value: string) => value.replace(/^["“”'「『]+|["“”'」』]+$/gu, '').trim();

/** What one sentence asks to change; null when it names no field. */
export function editOf(sentence: string): Edit | null {
  for (const { re, edit } of PATTERNS) {
    const match = re.exec(sentence);
    const value = match?.[1] ? unquote(match[1]) : '';
    if (value) return edit(value);
  }
  return null;
}

/** Whether two constraints name the same thing (case and spacing aside, or one contains the other). */
function sameConstraint(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  const [x, y] = [norm(a), norm(b)];
  return x === y || x.includes(y) || y.includes(x);
}

/**
 * Applies a person's correction to a restatement, each sentence to the field it concerns: "the goal is X" /
 * "目标是X" sets the goal, "add constraint Y" / "加一个约束Y" adds a constraint ("remove constraint Y" /
 * "去掉约束Y" removes it), "actually the problem is Z" / "问题其实是Z" replaces the problem, "the title is T" /
 * "标题改为T" the title. A sentence that names no field adds to the problem in the person's own words.
 * Plain code: the offline model's way of taking a correction, so what the person wrote is never lost.
 */
export function applyCorrection(understanding: Understanding, correction: string, zh: boolean): Understanding {
  const next: Understanding = { ...understanding, constraints: [...understanding.constraints] };
  const extra: string[] = [];
  for (const sentence of sentencesOf(correction)) {
    const edit = editOf(sentence);
    if (!edit) extra.push(sentence);
    else if (edit.field !== 'constraints') next[edit.field] = edit.value;
    else if (edit.op === 'remove') next.constraints = next.constraints.filter((c) => !sameConstraint(c, edit.value));
    else if (!next.constraints.some((c) => sameConstraint(c, edit.value))) next.constraints.push(edit.value);
  }
  if (extra.length) {
    const ended = (s: string) => (/[.!?。！？]$/u.test(s) ? s : `${s}${zh ? '。' : '.'}`);
    next.problem = [next.problem.trim(), ...extra].map(ended).join(zh ? '' : ' ');
  }
  next.constraints = next.constraints.slice(0, 12);
  return next;
}
