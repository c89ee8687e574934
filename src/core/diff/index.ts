export { diffChatTemplate } from "./chat-diff.ts";

export { diffJson } from "./json.ts";

export { diffTokenizerSummary, summarizeTokenizer } from "./tokenizer.ts";
