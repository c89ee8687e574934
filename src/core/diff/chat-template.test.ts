import { describe, expect, it } from "vitest";
import { extractChatTemplates } from "./chat-template.ts";

describe("extractChatTemplates", () => {
  it("reads tokenizer_config.json's chat_template string", () => {
    const files = [{ path: "tokenizer_config.json", text: JSON.stringify({ chat_template: "T" }) }];
    expect(extractChatTemplates(files)).toEqual({ default: "T" });
  });

  it("reads a named list from tokenizer_config.json", () => {
    const text = JSON.stringify({
      chat_template: [
        { name: "default", template: "D" },
        { name: "tool_use", template: "U" },
        { name: 3, template: "bad" },
      ],
    });
    expect(extractChatTemplates([{ path: "tokenizer_config.json", text }])).toEqual({
      default: "D",
      tool_use: "U",
    });
  });

  it("prefers chat_template.jinja over chat_template.json over tokenizer_config.json", () => {
    const files = [
      { path: "tokenizer_config.json", text: JSON.stringify({ chat_template: "from-config" }) },
      { path: "chat_template.json", text: JSON.stringify({ chat_template: "from-json" }) },
    ];
    expect(extractChatTemplates(files)).toEqual({ default: "from-json" });
    files.push({ path: "chat_template.jinja", text: "from-jinja" });
    files.push({ path: "additional_chat_templates/rag.jinja", text: "R" });
    expect(extractChatTemplates(files)).toEqual({ default: "from-jinja", rag: "R" });
  });

  it("ignores broken JSON, missing fields and unrelated files", () => {
    const files = [
      { path: "tokenizer_config.json", text: "{not json" },
      { path: "chat_template.json", text: JSON.stringify({ other: 1 }) },
      { path: "sub/chat_template.jinja", text: "nested" },
      { path: "README.md", text: "# hi" },
    ];
    expect(extractChatTemplates(files)).toEqual({});
  });
});
