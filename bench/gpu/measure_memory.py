"""Physical check of the estimator's memory figures on a CUDA machine.

Builds each fixture model from its config.json with random weights (no download), then measures the peak
of torch.cuda.max_memory_allocated for: one full fine-tune step (fp32 weights, bf16 autocast, AdamW: the
estimator's 16 bytes per parameter), one LoRA r=16 step (bf16 base, adapters on every linear but the head),
and one serving prefill (bf16 weights, KV cache kept). Prints one JSON line per model and a list last.

    python3 bench/gpu/measure_memory.py Qwen__Qwen3-0.6B Qwen__Qwen3-1.7B openai-community__gpt2

Compare with `npx hubwatch estimate fixtures/models/<name> --json` (memory.*.bytes; the training figures
with logits are `bytes`, the seed-comparable ones `bytes_without_logits`) and record both in
docs/ESTIMATOR.md. It has not yet been run on a GPU (docs/ESTIMATOR.md, "Measured on a GPU: not yet").
"""
import gc, json, sys, time
from pathlib import Path

import torch
from transformers import AutoConfig, AutoModelForCausalLM

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "models"
TRAIN_TOKENS, SERVE_TOKENS = 2048, 4096


def build(name, dtype):
    config = AutoConfig.from_pretrained(FIXTURES / name)
    with torch.device("cuda"):
        return AutoModelForCausalLM.from_config(config, torch_dtype=dtype), config


def tokens_for(config, wanted):
    context = getattr(config, "max_position_embeddings", None) or getattr(config, "n_positions", None) or wanted
    return min(wanted, context)


def peak(fn):
    gc.collect(); torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
    start = time.time(); fn(); torch.cuda.synchronize()
    return {"peak_bytes": torch.cuda.max_memory_allocated(), "seconds": round(time.time() - start, 2)}


def train_step(model, config, params):
    s = tokens_for(config, TRAIN_TOKENS)
    ids = torch.randint(0, config.vocab_size, (1, s), device="cuda")
    opt = torch.optim.AdamW(params, lr=1e-5)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = model(input_ids=ids, labels=ids).loss
    loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)


def full(name):
    model, config = build(name, torch.float32)
    out = peak(lambda: train_step(model, config, model.parameters()))
    del model
    return out


def lora(name):
    from peft import LoraConfig, get_peft_model
    model, config = build(name, torch.bfloat16)
    targets = sorted({n.split(".")[-1] for n, m in model.named_modules()
                      if isinstance(m, torch.nn.Linear) and "lm_head" not in n})
    model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, target_modules=targets))
    for p in model.parameters():
        if p.requires_grad: p.data = p.data.float()  # adapters at full AdamW state, as the estimate assumes
    out = peak(lambda: train_step(model, config, [p for p in model.parameters() if p.requires_grad]))
    del model
    return out


def serve(name):
    model, config = build(name, torch.bfloat16)
    s = tokens_for(config, SERVE_TOKENS)
    ids = torch.randint(0, config.vocab_size, (1, s), device="cuda")
    with torch.no_grad():
        out = peak(lambda: model(input_ids=ids, use_cache=True))
    del model
    return out


def main(names):
    rows = []
    for name in names:
        row = {"model": name}
        for mode, fn in (("serve", serve), ("lora", lora), ("full_finetune", full)):
            try:
                row[mode] = fn(name)
            except torch.cuda.OutOfMemoryError:
                row[mode] = {"error": "out of memory"}
            except Exception as err:  # a model transformers cannot build from config alone
                row[mode] = {"error": f"{type(err).__name__}: {err}"[:300]}
        print(json.dumps(row), flush=True)
        rows.append(row)
    print(json.dumps({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}))


if __name__ == "__main__":
    main(sys.argv[1:] or ["openai-community__gpt2", "Qwen__Qwen3-0.6B", "Qwen__Qwen3-1.7B", "Qwen__Qwen3-4B-Instruct-2507"])
