import type { NodeStatus } from '../api/results.ts';
import type { IconName } from '../components/Icon.svelte';

/** Colours of a status: the card's accent, its soft background and readable text on that background. */
export interface StatusColors {
  accent: string;
  soft: string;
  text: string;
}

/** One colour family per status, distinct for colour-blind people by lightness as well as hue. */
export const STATUS_COLORS: Record<NodeStatus, StatusColors> = {
  PENDING: { accent: '#94a3b8', soft: '#f1f5f9', text: '#334155' },
  READY: { accent: '#0284c7', soft: '#e0f2fe', text: '#075985' },
  BLOCKED: { accent: '#d97706', soft: '#fef3c7', text: '#92400e' },
  RUNNING: { accent: '#4f46e5', soft: '#e0e7ff', text: '#3730a3' },
  WAITING: { accent: '#9333ea', soft: '#f3e8ff', text: '#6b21a8' },
  COMPLETED: { accent: '#059669', soft: '#d1fae5', text: '#065f46' },
  FAILED: { accent: '#e11d48', soft: '#ffe4e6', text: '#9f1239' },
};

/** One shape per status, so a status reads at a glance without relying on colour alone. */
export const STATUS_ICONS: Record<NodeStatus, IconName> = {
  PENDING: 'circle',
  READY: 'play',
  BLOCKED: 'pause',
  RUNNING: 'spinner',
  WAITING: 'question',
  COMPLETED: 'check',
  FAILED: 'alert',
};
