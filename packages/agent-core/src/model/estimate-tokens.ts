import type { ChatMessage } from '../ports/model-port.ts';

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');
let encoding: Promise<Encoding> | undefined;

/**
 * The o200k_base encoding of `gpt-tokenizer` (GPT-4o's), shipped inside the npm package: nothing is
 * downloaded at run time. Loaded on first use (loading its ranks takes a moment), once per process.
 */
const load = (): Promise<Encoding> => {
  encoding ??= import('gpt-tokenizer/encoding/o200k_base');
  return encoding;
};

/**
 * Tokens a chat prompt takes, with the chat format's own tokens per message, plus `extra` text sent beside
 * the messages (a JSON schema as response format). Exact for OpenAI's GPT-4o family; other models'
 * tokenizers differ by some percent, which is the estimate's error a budget allows for.
 */
export async function estimatePromptTokens(messages: readonly ChatMessage[], extra = ''): Promise<number> {
  const { encodeChat, countTokens } = await load();
  return encodeChat(messages, 'gpt-4o').length + (extra ? countTokens(extra) : 0);
}

/** Tokens a piece of text takes (an answer streamed so far). */
export async function estimateTextTokens(text: string): Promise<number> {
  if (!text) return 0;
  return (await load()).countTokens(text);
}
