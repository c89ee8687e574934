/**
 * nemotron_h (NVIDIA's modeling_nemotron_h.py remote code): one mixer per layer, chosen by the
 * hybrid_override_pattern character: "M" Mamba2, "*" attention (GQA, no RoPE), "E" MoE (routed
 * relu2 experts with up/down only + shared expert, sigmoid router with e_score_correction_bias),
 * "-" plain relu2 MLP. Each layer is RMSNorm -> mixer -> residual add (three nodes).
 */
import { type ConfigView, divisible } from "../config-view.ts";
import type { KvLayer, ModelReading, StructureNode, TowerReading } from "../types.ts";
import { type MambaSpec, mamba2, mambaState } from "./hybrid-parts.ts";
import { fullKv, outputHead, textReading, textSeq } from "./moe-frame.ts";
import { gqaAttention, moeBlock, node, type Piece, pieceNode, plainMlp } from "./moe-parts.ts";

const KINDS: Record<string, string> = { M: "Mamba2", "*": "Attention", E: "MoE", "-": "MLP" };

function mambaSpec(cfg: ConfigView, hidden: number): MambaSpec {
  return {
    hidden,
    heads: cfg.int("mamba_num_heads"),
    headDim: cfg.int("mamba_head_dim"),
    groups: cfg.optInt("n_groups", 1),
    state: cfg.int("ssm_state_size"),
    kernel: cfg.optInt("conv_kernel", 4),
    convBias: cfg.bool("use_conv_bias", true),
    projBias: cfg.bool("mamba_proj_bias", cfg.bool("use_bias", false)),
    stateBytes: cfg.optStr("mamba_ssm_cache_dtype") === "float32" ? 4 : 2,
  };
}

function mixers(cfg: ConfigView, hidden: number): Record<string, Piece> {
  const heads = cfg.int("num_attention_heads");
  const bias = cfg.bool("attention_bias", false);
  const mlpBias = cfg.bool("mlp_bias", false);
  const out: Record<string, Piece> = {
    M: mamba2(mambaSpec(cfg, hidden)),
    "*": gqaAttention({
      hidden,
      heads,
      kvHeads: cfg.optInt("num_key_value_heads", heads),
      headDim: attnHeadDim(cfg, hidden),
      bias,
      oBias: bias,
    }),
    "-": plainMlp(hidden, cfg.int("intermediate_size"), mlpBias, "ReLU² MLP"),
  };
  if (cfg.has("n_routed_experts")) {
    out.E = moeBlock({
      hidden,
      experts: cfg.int("n_routed_experts"),
      topK: cfg.int("num_experts_per_tok"),
      expertInter: cfg.int("moe_intermediate_size"),
      ungated: true,
      sharedInter:
        cfg.optInt("n_shared_experts", 1, { min: 0 }) *
        cfg.optInt("moe_shared_expert_intermediate_size", 0, { min: 0 }),
      // e_score_correction_bias is a registered buffer in modeling_nemotron_h.py, not a parameter;
      // without it the count equals Nemotron-3-Nano-30B-A3B's published total exactly.
      correctionBias: false,
    });
  }
  return out;
}

function attnHeadDim(cfg: ConfigView, hidden: number): number {
  const heads = cfg.int("num_attention_heads");
  return cfg.has("head_dim")
    ? cfg.int("head_dim")
    : divisible(cfg, "hidden_size", hidden, heads, "num_attention_heads");
}

/** Three nodes per layer (norm, mixer, add) and the cache each mixer keeps. */
function hybridStack(cfg: ConfigView, hidden: number, seq: number) {
  const pattern = cfg.str("hybrid_override_pattern");
  const n = cfg.int("num_hidden_layers");
  if (pattern.length !== n)
    cfg.fail("hybrid_override_pattern", `has ${pattern.length} layers, num_hidden_layers is ${n}`);
  const pieces = mixers(cfg, hidden);
  const shape = [seq, hidden];
  const nodes: StructureNode[] = [];
  const kvLayers: KvLayer[] = [];
  const attnKv = fullKv(
    cfg.optInt("num_key_value_heads", cfg.int("num_attention_heads")),
    attnHeadDim(cfg, hidden),
  );
  [...pattern].forEach((ch, i) => {
    const p =
      pieces[ch] ?? cfg.fail("hybrid_override_pattern", `unknown layer kind "${ch}" at layer ${i + 1}`);
    const l = i + 1;
    nodes.push(
      node(`RMSNorm_${l}`, "RMSNorm", shape, hidden, hidden, l),
      pieceNode(`${KINDS[ch]}_${l}`, p, shape, l),
      node(`Add_${l}`, "Add", shape, 0, hidden, l),
    );
    if (ch === "M") kvLayers.push(mambaState(mambaSpec(cfg, hidden)));
    if (ch === "*") kvLayers.push(attnKv);
  });
  return { nodes, kvLayers };
}

/** nemotron_h: hybrid Mamba2 / attention / MoE stack per hybrid_override_pattern. */
export function readNemotronH(cfg: ConfigView): ModelReading {
  const hidden = cfg.int("hidden_size");
  const vocab = cfg.int("vocab_size");
  const context = cfg.has("max_position_embeddings") ? cfg.int("max_position_embeddings") : null;
  const seq = textSeq(context);
  const tied = cfg.bool("tie_word_embeddings", false);
  const { nodes, kvLayers } = hybridStack(cfg, hidden, seq);
  const all = [
    node("Embedding", "Embedding", [seq, hidden], vocab * hidden, 0),
    ...nodes,
    ...outputHead({ seq, hidden, vocab, tied, finalNorm: hidden }),
  ];
  const towers: TowerReading[] = [{ name: "text", role: "decoder", seqLen: seq, nodes: all }];
  return textReading({ cfg, family: "nemotron_h", hidden, vocab, context, tied, towers, kvLayers });
}
