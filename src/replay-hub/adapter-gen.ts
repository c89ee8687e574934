/**
 * Generates an adapter_model.safetensors header as PEFT saves a LoRA adapter (peft/utils/save_and_load.py
 * `get_peft_model_state_dict`): for each base linear whose name ends in "." + a target, under the
 * "base_model.model." prefix, `<module>.lora_A.weight` [r, in] and `<module>.lora_B.weight` [out, r]; with
 * DoRA `<module>.lora_magnitude_vector` [out]; a module to save is stored whole (`<module>.weight`, its bias).
 * The base's modules and shapes are those of the generated base checkpoint (safetensors-gen.ts).
 */
import { weightLayout } from "./safetensors-gen.ts";

type AdapterSpec = {
  r: number;
  targets: string[];
  useDora?: boolean;
  modulesToSave?: string[];
  /** Stored dtype: PEFT keeps the adapter in fp32 unless autocast_adapter_dtype=False (default F32). */
  dtype?: "F32" | "BF16" | "F16";
};

type Tensor = { name: string; shape: number[] };

const BYTES = { F32: 4, BF16: 2, F16: 2 } as const;
const PREFIX = "base_model.model.";

function baseTensors(baseConfig: Record<string, unknown>): Tensor[] {
  const out: Tensor[] = [];
  for (const header of Object.values(weightLayout(baseConfig).files)) {
    for (const [name, info] of Object.entries(header)) {
      if (name !== "__metadata__") out.push({ name, shape: (info as { shape: number[] }).shape });
    }
  }
  return out;
}

function adapterTensors(base: Tensor[], a: AdapterSpec): Tensor[] {
  const out: Tensor[] = [];
  for (const t of base) {
    const module = t.name.replace(/\.(weight|bias)$/, "");
    if (a.modulesToSave?.some((m) => module === m || module.endsWith(`.${m}`))) {
      out.push({ name: `${PREFIX}${t.name}`, shape: t.shape });
      continue;
    }
    if (!t.name.endsWith(".weight") || t.shape.length !== 2) continue;
    if (!a.targets.some((x) => module.endsWith(`.${x}`))) continue;
    const [outF, inF] = t.shape as [number, number];
    out.push({ name: `${PREFIX}${module}.lora_A.weight`, shape: [a.r, inF] });
    out.push({ name: `${PREFIX}${module}.lora_B.weight`, shape: [outF, a.r] });
    if (a.useDora) out.push({ name: `${PREFIX}${module}.lora_magnitude_vector`, shape: [outF] });
  }
  return out;
}

/** The header (names, dtypes, shapes, offsets) of a LoRA adapter trained on `baseConfig`'s model. */
export function adapterHeader(baseConfig: Record<string, unknown>, a: AdapterSpec): Record<string, unknown> {
  const dtype = a.dtype ?? "F32";
  const header: Record<string, unknown> = { __metadata__: { format: "pt" } };
  let offset = 0;
  const tensors = adapterTensors(baseTensors(baseConfig), a).sort((x, y) => x.name.localeCompare(y.name));
  for (const t of tensors) {
    const bytes = t.shape.reduce((p, d) => p * d, 1) * BYTES[dtype];
    header[t.name] = { dtype, shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  return header;
}
