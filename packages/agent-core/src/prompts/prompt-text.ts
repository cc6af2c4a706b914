import type { Language } from '../domain/enums.ts';

/** A prompt written in both languages; agents pick the map's. */
export type Bilingual = Readonly<Record<Language, string>>;
