"""Renders chat templates the way transformers' apply_chat_template does, as a test oracle.

Reads {"cases": [{"id", "template", "tokens", "scenarios": [...]}]} as JSON on stdin and writes
{"results": [{"id", "outputs": [{"name", "output", "error"}]}]} on stdout. The environment is the
one transformers builds (chat_template_utils._compile_jinja_template): ImmutableSandboxedEnvironment
with trim_blocks, lstrip_blocks and loopcontrols, `tojson` as json.dumps without ASCII escaping,
`raise_exception` and `strftime_now` as globals, `{% generation %}` blocks rendered as their body.
`strftime_now` reads the fixed date the TypeScript renderer pins (2024-07-26) so outputs compare.
"""

import json
import sys
from datetime import datetime

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment

FIXED_NOW = datetime(2024, 7, 26)


class GenerationBlock(jinja2.ext.Extension):
    """`{% generation %}...{% endgeneration %}` marks assistant text; outside training it is its body."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

    def _body(self, caller):
        return caller()


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def environment():
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationBlock, jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: FIXED_NOW.strftime(fmt)
    return env


def continue_final(rendered, final):
    """transformers' continue_final_message: end the prompt right after the final message's text."""
    if final.strip() not in rendered:
        raise ValueError("continue_final_message: the final message does not appear in the prompt")
    at = rendered.rindex(final.strip())
    if rendered[at : at + len(final.lstrip())] == final:
        return rendered[: at + len(final.lstrip())]
    return rendered[: at + len(final.strip())]


def render(template, tokens, scenario):
    rendered = template.render(
        messages=scenario["messages"],
        tools=scenario.get("tools"),
        documents=scenario.get("documents"),
        add_generation_prompt=scenario["add_generation_prompt"],
        **tokens,
    )
    if scenario.get("continue_final_message"):
        rendered = continue_final(rendered, scenario["messages"][-1]["content"])
    return rendered


def run_case(env, case):
    tokens = {k: v for k, v in case["tokens"].items() if isinstance(v, str)}
    try:
        template = env.from_string(case["template"])
    except Exception as err:  # noqa: BLE001 - a template that does not parse fails every scenario
        return [{"name": s["name"], "output": str(err), "error": True} for s in case["scenarios"]]
    outputs = []
    for scenario in case["scenarios"]:
        try:
            outputs.append({"name": scenario["name"], "output": render(template, tokens, scenario), "error": False})
        except Exception as err:  # noqa: BLE001 - per-scenario errors are results
            outputs.append({"name": scenario["name"], "output": f"{type(err).__name__}: {err}", "error": True})
    return outputs


def main():
    request = json.load(sys.stdin)
    env = environment()
    results = [{"id": c["id"], "outputs": run_case(env, c)} for c in request["cases"]]
    json.dump({"jinja2": jinja2.__version__, "results": results}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
