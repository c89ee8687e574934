/** Bytes per safetensors dtype, and a checkpoint's float dtype from its config. */
import type { ConfigView } from "./config-view.ts";

export const DTYPE_SIZE: Record<string, number> = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  F8_E4M3: 1,
  F8_E5M2: 1,
  F8_E8M0: 1,
  F4: 0.5,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U64: 8,
  U32: 4,
  U16: 2,
  U8: 1,
  BOOL: 1,
};

/** The checkpoint's float dtype from torch_dtype / dtype (root, else text_config), as a safetensors name. */
export function modelDtype(cfg: ConfigView): string {
  const raw = cfg.raw.torch_dtype ?? cfg.raw.dtype ?? subRaw(cfg, "text_config")?.torch_dtype;
  if (raw === "float32") return "F32";
  if (raw === "float16") return "F16";
  return "BF16";
}

function subRaw(cfg: ConfigView, key: string): Record<string, unknown> | undefined {
  const v = cfg.raw[key];
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
