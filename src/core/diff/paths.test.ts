import { describe, expect, it } from "vitest";
import { classifyPath, isTrackedPath } from "./paths.ts";

describe("classifyPath", () => {
  it.each([
    ["config.json", "config"],
    ["generation_config.json", "generation_config"],
    ["tokenizer_config.json", "tokenizer"],
    ["special_tokens_map.json", "tokenizer"],
    ["tokenizer.json", "tokenizer"],
    ["chat_template.jinja", "chat_template"],
    ["chat_template.json", "chat_template"],
    ["additional_chat_templates/tool_use.jinja", "chat_template"],
    ["model.safetensors", "weights"],
    ["model-00001-of-00004.safetensors", "weights"],
    ["model.safetensors.index.json", "weights"],
    ["README.md", "other"],
    ["onnx/config.json", "other"],
    ["additional_chat_templates/nested/x.jinja", "other"],
    ["pytorch_model.bin", "other"],
    ["tokenizer.model", "other"],
  ] as const)("%s -> %s", (path, category) => {
    expect(classifyPath(path)).toBe(category);
    expect(isTrackedPath(path)).toBe(category !== "other");
  });
});
