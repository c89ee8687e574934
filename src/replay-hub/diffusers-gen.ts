/**
 * Safetensors headers for diffusers pipeline components, with the tensor names and shapes their modules
 * register, derived from each component's config (huggingface/diffusers: models/unets/unet_2d_condition.py,
 * unet_2d_blocks.py, resnet.py, transformers/transformer_2d.py, attention.py, autoencoders/vae.py,
 * autoencoder_kl.py, autoencoder_tiny.py). CLIP encoders: diffusers-gen-clip.ts.
 */
export type Tensor = { name: string; shape: number[]; dtype?: string };
type Config = Record<string, unknown>;

const DTYPE_BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2, I64: 8 };

export function num(c: Config, key: string, fallback?: number): number {
  const v = c[key] ?? fallback;
  if (typeof v !== "number") throw new Error(`config.${key} missing`);
  return v;
}

function nums(c: Config, key: string): number[] {
  const v = c[key];
  if (!Array.isArray(v) || !v.every((x) => typeof x === "number")) throw new Error(`config.${key} missing`);
  return v as number[];
}

function strs(c: Config, key: string): string[] {
  const v = c[key];
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw new Error(`config.${key} missing`);
  return v as string[];
}

export const w = (name: string, ...shape: number[]): Tensor => ({ name, shape });

/** nn.Conv2d / nn.Linear / norm weight plus bias. */
function conv(p: string, out: number, inp: number, k: number, bias = true): Tensor[] {
  return [w(`${p}.weight`, out, inp, k, k), ...(bias ? [w(`${p}.bias`, out)] : [])];
}
export function linear(p: string, out: number, inp: number, bias = true): Tensor[] {
  return [w(`${p}.weight`, out, inp), ...(bias ? [w(`${p}.bias`, out)] : [])];
}
export function norm(p: string, c: number): Tensor[] {
  return [w(`${p}.weight`, c), w(`${p}.bias`, c)];
}

/** ResnetBlock2D: GroupNorm, 3x3 conv, time projection (when temb), GroupNorm, 3x3 conv, 1x1 shortcut if in != out. */
function resnet(p: string, inp: number, out: number, temb: number | null): Tensor[] {
  return [
    ...norm(`${p}.norm1`, inp),
    ...conv(`${p}.conv1`, out, inp, 3),
    ...(temb === null ? [] : linear(`${p}.time_emb_proj`, out, temb)),
    ...norm(`${p}.norm2`, out),
    ...conv(`${p}.conv2`, out, out, 3),
    ...(inp === out ? [] : conv(`${p}.conv_shortcut`, out, inp, 1)),
  ];
}

/** Attention (attention_processor.py) q/k/v without bias (`bias=False`), to_out.0 with bias. */
function attention(p: string, inner: number, kv: number): Tensor[] {
  return [
    ...linear(`${p}.to_q`, inner, inner, false),
    ...linear(`${p}.to_k`, inner, kv, false),
    ...linear(`${p}.to_v`, inner, kv, false),
    ...linear(`${p}.to_out.0`, inner, inner),
  ];
}

/** Transformer2DModel with one BasicTransformerBlock (self-attn, cross-attn, GEGLU feed-forward x4). */
function transformer2d(p: string, c: number, cross: number, linearProj: boolean): Tensor[] {
  const proj = (name: string) => (linearProj ? linear(name, c, c) : conv(name, c, c, 1));
  const b = `${p}.transformer_blocks.0`;
  return [
    ...norm(`${p}.norm`, c),
    ...proj(`${p}.proj_in`),
    ...norm(`${b}.norm1`, c),
    ...attention(`${b}.attn1`, c, c),
    ...norm(`${b}.norm2`, c),
    ...attention(`${b}.attn2`, c, cross),
    ...norm(`${b}.norm3`, c),
    ...linear(`${b}.ff.net.0.proj`, c * 8, c),
    ...linear(`${b}.ff.net.2`, c, c * 4),
    ...proj(`${p}.proj_out`),
  ];
}

/** UNet2DConditionModel with CrossAttn/plain down and up blocks and a UNetMidBlock2DCrossAttn. */
export function unet2dConditionTensors(c: Config): Tensor[] {
  const ch = nums(c, "block_out_channels");
  const layers = num(c, "layers_per_block");
  const cross = num(c, "cross_attention_dim");
  const lin = c.use_linear_projection === true;
  const temb = ch[0]! * 4;
  const out: Tensor[] = [
    ...conv("conv_in", ch[0]!, num(c, "in_channels"), 3),
    ...linear("time_embedding.linear_1", temb, ch[0]!),
    ...linear("time_embedding.linear_2", temb, temb),
  ];
  let prev = ch[0]!;
  strs(c, "down_block_types").forEach((type, i) => {
    const o = ch[i]!;
    for (let j = 0; j < layers; j++) {
      out.push(...resnet(`down_blocks.${i}.resnets.${j}`, j === 0 ? prev : o, o, temb));
      if (type.startsWith("CrossAttn"))
        out.push(...transformer2d(`down_blocks.${i}.attentions.${j}`, o, cross, lin));
    }
    if (i < ch.length - 1) out.push(...conv(`down_blocks.${i}.downsamplers.0.conv`, o, o, 3));
    prev = o;
  });
  const last = ch.at(-1)!;
  out.push(
    ...resnet("mid_block.resnets.0", last, last, temb),
    ...transformer2d("mid_block.attentions.0", last, cross, lin),
    ...resnet("mid_block.resnets.1", last, last, temb),
  );
  const rev = [...ch].reverse();
  let output = rev[0]!;
  strs(c, "up_block_types").forEach((type, i) => {
    const prevOut = output;
    output = rev[i]!;
    const input = rev[Math.min(i + 1, ch.length - 1)]!;
    for (let j = 0; j <= layers; j++) {
      const skip = j === layers ? input : output;
      const resIn = j === 0 ? prevOut : output;
      out.push(...resnet(`up_blocks.${i}.resnets.${j}`, resIn + skip, output, temb));
      if (type.startsWith("CrossAttn"))
        out.push(...transformer2d(`up_blocks.${i}.attentions.${j}`, output, cross, lin));
    }
    if (i < ch.length - 1) out.push(...conv(`up_blocks.${i}.upsamplers.0.conv`, output, output, 3));
  });
  out.push(...norm("conv_norm_out", ch[0]!), ...conv("conv_out", num(c, "out_channels"), ch[0]!, 3));
  return out;
}

/** UNetMidBlock2D of the VAE: resnet, single-head self-attention with GroupNorm and biased q/k/v, resnet. */
function vaeMid(p: string, c: number): Tensor[] {
  const a = `${p}.attentions.0`;
  return [
    ...resnet(`${p}.resnets.0`, c, c, null),
    ...norm(`${a}.group_norm`, c),
    ...linear(`${a}.to_q`, c, c),
    ...linear(`${a}.to_k`, c, c),
    ...linear(`${a}.to_v`, c, c),
    ...linear(`${a}.to_out.0`, c, c),
    ...resnet(`${p}.resnets.1`, c, c, null),
  ];
}

/** AutoencoderKL: Encoder (double_z), Decoder (layers_per_block + 1 resnets per up block), quant convs. */
export function autoencoderKlTensors(c: Config): Tensor[] {
  const ch = nums(c, "block_out_channels");
  const layers = num(c, "layers_per_block");
  const latent = num(c, "latent_channels");
  const last = ch.at(-1)!;
  const out: Tensor[] = [...conv("encoder.conv_in", ch[0]!, num(c, "in_channels"), 3)];
  let prev = ch[0]!;
  ch.forEach((o, i) => {
    for (let j = 0; j < layers; j++)
      out.push(...resnet(`encoder.down_blocks.${i}.resnets.${j}`, j === 0 ? prev : o, o, null));
    if (i < ch.length - 1) out.push(...conv(`encoder.down_blocks.${i}.downsamplers.0.conv`, o, o, 3));
    prev = o;
  });
  out.push(...vaeMid("encoder.mid_block", last), ...norm("encoder.conv_norm_out", last));
  out.push(...conv("encoder.conv_out", 2 * latent, last, 3), ...conv("decoder.conv_in", last, latent, 3));
  out.push(...vaeMid("decoder.mid_block", last));
  const rev = [...ch].reverse();
  let output = rev[0]!;
  rev.forEach((o, i) => {
    const input = output;
    output = o;
    for (let j = 0; j <= layers; j++)
      out.push(...resnet(`decoder.up_blocks.${i}.resnets.${j}`, j === 0 ? input : o, o, null));
    if (i < ch.length - 1) out.push(...conv(`decoder.up_blocks.${i}.upsamplers.0.conv`, o, o, 3));
  });
  out.push(
    ...norm("decoder.conv_norm_out", ch[0]!),
    ...conv("decoder.conv_out", num(c, "out_channels"), ch[0]!, 3),
  );
  out.push(...conv("quant_conv", 2 * latent, 2 * latent, 1), ...conv("post_quant_conv", latent, latent, 1));
  return out;
}

/** AutoencoderTinyBlock: three 3x3 convs (the activations between them hold no parameters), 1x1 skip if in != out. */
function tinyBlock(p: string, inp: number, o: number): Tensor[] {
  const skip = inp === o ? [] : conv(`${p}.skip`, o, inp, 1, false);
  return [
    ...conv(`${p}.conv.0`, o, inp, 3),
    ...conv(`${p}.conv.2`, o, o, 3),
    ...conv(`${p}.conv.4`, o, o, 3),
    ...skip,
  ];
}

/** AutoencoderTiny (TAESD): EncoderTiny and DecoderTiny as nn.Sequential; indices count parameter-free layers too. */
export function autoencoderTinyTensors(c: Config): Tensor[] {
  const out: Tensor[] = [];
  const enc = nums(c, "encoder_block_out_channels");
  let k = 0;
  nums(c, "num_encoder_blocks").forEach((n, i) => {
    const ch = enc[i]!;
    out.push(
      ...(i === 0
        ? conv(`encoder.layers.${k++}`, ch, num(c, "in_channels"), 3)
        : conv(`encoder.layers.${k++}`, ch, ch, 3, false)),
    );
    for (let b = 0; b < n; b++) out.push(...tinyBlock(`encoder.layers.${k++}`, ch, ch));
  });
  out.push(...conv(`encoder.layers.${k}`, num(c, "latent_channels"), enc.at(-1)!, 3));
  const dec = nums(c, "decoder_block_out_channels");
  const blocks = nums(c, "num_decoder_blocks");
  out.push(...conv("decoder.layers.0", dec[0]!, num(c, "latent_channels"), 3));
  k = 2; // layers.1 is the activation
  blocks.forEach((n, i) => {
    const ch = dec[i]!;
    const final = i === blocks.length - 1;
    for (let b = 0; b < n; b++) out.push(...tinyBlock(`decoder.layers.${k++}`, ch, ch));
    if (!final) k++; // nn.Upsample
    out.push(...conv(`decoder.layers.${k++}`, final ? num(c, "out_channels") : ch, ch, 3, final));
  });
  return out;
}

/** A safetensors header (sorted names, contiguous offsets) for tensors stored at `dtype` (buffers keep theirs). */
export function diffusersHeader(tensors: Tensor[], dtype: "F32" | "F16" | "BF16"): Record<string, unknown> {
  const header: Record<string, unknown> = { __metadata__: { format: "pt" } };
  let offset = 0;
  for (const t of [...tensors].sort((a, b) => a.name.localeCompare(b.name))) {
    const d = t.dtype ?? dtype;
    const bytes = t.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[d]!;
    header[t.name] = { dtype: d, shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  return header;
}
