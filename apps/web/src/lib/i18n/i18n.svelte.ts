import type { Language } from '../api/results.ts';
import type { MessageKey } from './messages.ts';
import { pickLanguage } from './pick-language.ts';
import { isMessageKey, type MessageParams, translate } from './translate.ts';

const STORAGE_KEY = 'thinkingmap.language';

/** The interface language: chosen by the person, else the browser's, kept in localStorage. */
export class I18n {
  language = $state<Language>('en');

  constructor(storage: Pick<Storage, 'getItem' | 'setItem'> | null = null, preferred: readonly string[] = []) {
    this.#storage = storage;
    const saved = storage?.getItem(STORAGE_KEY);
    this.language = saved === 'zh' || saved === 'en' ? saved : pickLanguage(preferred);
  }

  #storage: Pick<Storage, 'getItem' | 'setItem'> | null;

  /** Switches the language and remembers the choice. */
  setLanguage(language: Language): void {
    this.language = language;
    this.#storage?.setItem(STORAGE_KEY, language);
    if (typeof document !== 'undefined') document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  }

  /** The text of `key` in the current language. */
  t = (key: MessageKey, params?: MessageParams): string => translate(this.language, key, params);

  /**
   * The text of a key built from a value the API sends (`history.action.${action}`): the key itself when no
   * message has it, so a value newer than this page shows as it is.
   */
  tOf = (key: string, params?: MessageParams): string => (isMessageKey(key) ? this.t(key, params) : key);
}

const inBrowser = typeof window !== 'undefined';

/** The app's interface language (the workspace renders in the browser only: `ssr = false`). */
export const i18n = new I18n(inBrowser ? window.localStorage : null, inBrowser ? navigator.languages : []);
