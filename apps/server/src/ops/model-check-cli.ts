// `pnpm model:check`: checks the model endpoints the environment configures (OPENAI_*, MODEL, MODEL_<AGENT>,
// OPENAI_BASE_URL_<AGENT>, OPENAI_API_KEY_<AGENT>) and prints what works, what was fallen back to, and the
// latency; exits 1 when an endpoint answers neither structured nor streamed requests.
import { checkModel, formatModelCheck, modelConfigFromEnv } from '@thinkingmap/agent-core';

const language = /^zh/i.test(process.env.LC_ALL || process.env.LANG || '') ? 'zh' : 'en';
const config = modelConfigFromEnv(process.env);
if (!config) {
  console.log(
    language === 'zh'
      ? '未配置模型（OPENAI_API_KEY 或 OPENAI_BASE_URL）：使用离线模型，无需检查。'
      : 'No model configured (OPENAI_API_KEY or OPENAI_BASE_URL): the offline model is used, nothing to check.',
  );
} else {
  const check = await checkModel(config);
  console.log(formatModelCheck(check, language));
  if (!check.usable) {
    console.error(
      language === 'zh'
        ? '\n有端点既不能结构化回答也不能流式回答：ThinkingMap 无法用它运行。'
        : '\nAn endpoint answers neither structured nor streamed requests: ThinkingMap cannot run on it.',
    );
    process.exitCode = 1;
  }
}
