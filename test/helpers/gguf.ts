// GGUF files for tests: the writer and the llama-style generator the replay hub serves, plus a file writer.
import { open } from "node:fs/promises";
import type { EncodedGguf } from "../../src/replay-hub/gguf-writer.ts";

export { llamaGguf } from "../../src/replay-hub/gguf-gen.ts";
export { encodeGguf } from "../../src/replay-hub/gguf-writer.ts";

/** Writes a GGUF file: its header, then the tensor data as a hole (the size is real; no data is written). */
export async function writeGguf(path: string, enc: EncodedGguf): Promise<void> {
  const fh = await open(path, "w");
  try {
    await fh.write(enc.header);
    await fh.truncate(enc.size);
  } finally {
    await fh.close();
  }
}

/**
 * A two-layer llama config small enough to count by hand: hidden 256, 4 heads (head_dim 64), 2 KV heads,
 * MLP 512, vocabulary 1024, untied output.
 */
export const TINY_LLAMA = {
  model_type: "llama",
  hidden_size: 256,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  intermediate_size: 512,
  num_hidden_layers: 2,
  vocab_size: 1024,
  max_position_embeddings: 2048,
  rope_theta: 10000,
  rms_norm_eps: 1e-5,
  tie_word_embeddings: false,
  bos_token_id: 1,
  eos_token_id: 2,
};
