"""Mutation testing of the rules (mutmut 3.8.1; docs/mutation.md). A developer tool, not CI.

    scripts/mutation referee/games/gallerist/rules/scoring.py   one module
    scripts/mutation gallerist                                  a game's rules/ and evolve.py
    scripts/mutation referee/kept.py referee/dice.py            several
    scripts/mutation --table TARGET...                          the figures of the last run
    scripts/mutation --no-subprocess TARGET...                  skip the second pass

mutmut copies the tree to mutants/ and runs, for each mutant, the tests that called the mutated
function while it collected its stats. A test that runs the CLI in a subprocess calls nothing in
this process, so mutmut never associates it with a mutant: the second pass re-runs every
survivor with those tests added (the subprocess inherits MUTANT_UNDER_TEST from the
environment, and PYTHONPATH puts the mutated copy first, so the child's trampolines switch the
same mutant on). Always one worker: the machine is shared.

Survivors: `.venv/bin/mutmut results` lists them, `.venv/bin/mutmut show NAME` shows one's diff
(both from the repository root, after a run).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GAMES = ("gallerist", "art_project", "gallery_grippers")
# The second pass: the tests that run the CLI in a subprocess (mutmut cannot see what they
# call), run against the survivors of the first.
SLOW_TESTS = {
    "common": ["tests/referee/test_headless.py"],
    "gallerist": ["tests/referee/games/gallerist/test_headless.py"],
    "art_project": ["tests/referee/games/art_project/test_headless.py"],
    "gallery_grippers": [],
    "core": [],
}
# Left out of both passes: whole stored games through a Session and SQLite (half a minute a
# run: too slow to run per mutant; they referee storage, which the rules tests do not need).
LEFT_OUT = ["tests/referee/games/gallerist/test_session.py",
            "tests/referee/games/art_project/test_session.py"]
# The first pass: the in-process tests that referee each part (the game's own rules tests,
# its house rules, its scenarios), run against every mutant of its modules.
GAME_TESTS = {
    "gallerist": ["tests/referee/games/gallerist"],
    "art_project": ["tests/referee/games/art_project"],
    "gallery_grippers": ["tests/referee/test_rules.py", "tests/referee/test_gg_ruleset.py",
                         "tests/referee/test_rounds_and_ranks.py",
                         "tests/referee/test_second_game.py",
                         "tests/referee/test_gg_play_rulings.py",
                         "tests/referee/test_gg_obstacle_rulings.py",
                         "tests/referee/test_gg_cards_rulings.py",
                         "tests/referee/test_gg_common_rulings.py",
                         "tests/referee/test_gg_setup_rulings.py",
                         "tests/referee/test_gg_evolve.py",
                         "tests/referee/test_gg_queries_rulings.py",
                         "tests/referee/games/test_gallery_grippers_house_rules.py"],
}
CORE_TESTS = {
    "referee/kept.py": ["tests/referee/test_kept_contract.py", "tests/referee/test_kept_dice.py",
                        "tests/referee/test_kept_property.py", "tests/referee/test_dice.py"],
    "referee/dice.py": ["tests/referee/test_dice_contract.py", "tests/referee/test_dice_rulings.py",
                        "tests/referee/test_dice.py",
                        "tests/referee/test_kept_dice.py", "tests/referee/test_kept_property.py"],
}


def expand(target: str) -> list[str]:
    """A target -> the module paths (relative to the root) to mutate."""
    if target in GAMES:
        base = Path("referee/games") / target
        rules = sorted(str(p) for p in (base / "rules").glob("*.py")
                       if p.name not in ("__init__.py", "setup.py"))
        return [*rules, str(base / "evolve.py")]
    path = Path(target)
    if path.is_absolute():
        path = path.relative_to(ROOT)
    if (ROOT / path).is_dir():
        return sorted(str(p.relative_to(ROOT)) for p in (ROOT / path).glob("*.py")
                      if p.name != "__init__.py")
    if not (ROOT / path).is_file():
        raise SystemExit(f"scripts/mutation: no module {target!r}")
    return [str(path)]


def game_of(module: str) -> str | None:
    parts = Path(module).parts
    return parts[2] if len(parts) > 2 and parts[:2] == ("referee", "games") else None


def tests_for(modules: list[str]) -> tuple[list[str], list[str]]:
    """(first-pass test paths, second-pass test paths) for these modules."""
    first: list[str] = []
    slow: list[str] = list(SLOW_TESTS["common"])
    for m in modules:
        game = game_of(m)
        first += GAME_TESTS[game] if game else CORE_TESTS.get(m, ["tests/referee"])
        slow += SLOW_TESTS[game or "core"]
    slow = [p for p in dict.fromkeys(slow) if (ROOT / p).exists()]
    # a folder in the first pass leaves its slow files out (pytest's --deselect takes ids;
    # --ignore takes paths, relative to mutants/ where the tests run)
    ignore = [f"--ignore={p}" for p in [*slow, *LEFT_OUT]
              if any(p.startswith(f + "/") for f in first)]
    return [p for p in dict.fromkeys(first) if (ROOT / p).exists()] + ignore, slow


def statuses(module: str) -> dict[str, str]:
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.stats import status_by_exit_code

    data = SourceFileMutationData(path=module)
    data.load()
    return {k: status_by_exit_code[v] for k, v in data.exit_code_by_key.items()}


def table(modules: list[str]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for m in modules:
        st = statuses(m)
        killed = sum(1 for s in st.values() if s in ("killed", "timeout", "caught by type check"))
        survived = sorted(k for k, s in st.items() if s == "survived")
        other = sorted(f"{k} ({s})" for k, s in st.items()
                       if s not in ("killed", "timeout", "caught by type check", "survived"))
        total = len(st)
        rows.append({"module": m, "mutants": total, "killed": killed,
                     "survived": len(survived), "other": other, "survivors": survived,
                     "score": round(100 * killed / total, 1) if total else None})
    print()
    print(f"mutation score, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"{'module':<48} {'mutants':>7} {'killed':>6} {'survived':>8} {'score':>7}")
    for r in rows:
        score = "-" if r["score"] is None else f"{r['score']} %"
        print(f"{r['module']:<48} {r['mutants']:>7} {r['killed']:>6} {r['survived']:>8} "
              f"{score:>7}")
    for r in rows:
        for name in r["survivors"]:  # type: ignore[attr-defined]
            print(f"  survived: {name}")
        for name in r["other"]:  # type: ignore[attr-defined]
            print(f"  not killed: {name}")
    return rows


def configure(modules: list[str], tests: list[str]) -> None:
    """The run's modules and tests, over pyproject's [tool.mutmut] (mutmut reads no others)."""
    from mutmut.configuration import config

    cfg = config()
    cfg.only_mutate = list(modules)
    cfg.pytest_add_cli_args_test_selection = list(tests)


def second_pass(survivors: list[str], first: list[str], slow: list[str]) -> None:
    """Run each survivor against the slow tests, in mutants/ as mutmut does, and record a
    kill in mutmut's own results (so `mutmut results` and the table agree). The subprocesses
    inherit MUTANT_UNDER_TEST and import the mutated copy (PYTHONPATH)."""
    import subprocess

    from mutmut.mutation.data import SourceFileMutationData

    def run(mutant: str) -> int:
        env = {**os.environ, "MUTANT_UNDER_TEST": mutant}
        return subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly",
                               "--rootdir=.", "-p", "no:cacheprovider", *slow],
                              cwd=ROOT / "mutants", env=env, capture_output=True,
                              text=True).returncode

    if run("") != 0:  # the clean tree must pass, or a failure would prove nothing
        raise SystemExit("scripts/mutation: the second pass's tests fail without a mutant")
    by_module: dict[str, list[str]] = {}
    for name in survivors:
        module = name.rsplit(".", 1)[0].replace(".", "/") + ".py"
        by_module.setdefault(module, []).append(name)
    for module, names in by_module.items():
        data = SourceFileMutationData(path=module)
        data.load()
        for name in names:
            code = run(name)
            verdict = {0: "survived", 1: "killed"}.get(code, f"exit {code}")
            print(f"  {verdict}: {name}", flush=True)
            if code == 1:
                data.exit_code_by_key[name] = 1
        data.save()


def mutmut(*args: str) -> None:
    from mutmut.__main__ import cli

    try:
        cli.main(list(args), standalone_mode=False)
    except SystemExit as e:
        if e.code not in (0, None):
            raise


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("targets", nargs="+", help="a module, a folder, or a game's id")
    ap.add_argument("--table", action="store_true", help="only print the last run's figures")
    ap.add_argument("--no-subprocess", action="store_true",
                    help="skip the second pass (survivors against the CLI-in-a-subprocess tests)")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    a = ap.parse_args()
    os.chdir(ROOT)
    modules = [m for t in a.targets for m in expand(t)]
    inproc, sub = tests_for(modules)
    if a.no_subprocess:
        sub = []
    configure(modules, inproc)
    if not a.table:
        # The tests' hypothesis properties try a few examples per mutant (tests/conftest.py)
        os.environ["REFEREE_MUTATION"] = "1"
        # The CLI's subprocesses import the mutated copy, not the editable install.
        os.environ["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT / "mutants"), *filter(None, [os.environ.get("PYTHONPATH")])])
        for m in modules:
            # mutmut copies a module it is not mutating with a newer mtime, and later takes
            # that copy for an up-to-date set of mutants: make it generate them
            copy = ROOT / "mutants" / m
            if copy.exists() and "mutmut generated" not in copy.read_text(encoding="utf-8"):
                copy.unlink()
        # mutmut keeps which test calls which function (its stats) and collects them again
        # only for tests it has not seen: after a run on another module of the same game, the
        # functions of this one would have no tests at all ("no tests"). Collected afresh.
        (ROOT / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
        print(f"mutating {', '.join(modules)}\n  tests: {' '.join(inproc)}"
              f"\n  then the survivors against: {' '.join(sub) or '(none)'}", flush=True)
        mutmut("run", "--max-children", "1")
        # mutmut keeps a verdict until the function changes: survivors are tried again
        # against the tests as they are now (a test added since the last run may kill them)
        # (and those stale stats left "no tests")
        again = [k for m in modules for k, s in statuses(m).items()
                 if s in ("survived", "no tests")]
        if again:
            print(f"\n{len(again)} survivors against the tests as they are now", flush=True)
            mutmut("run", "--max-children", "1", *again)
        survivors = [k for m in modules for k, s in statuses(m).items() if s == "survived"]
        if sub and survivors:
            print(f"\nsecond pass: {len(survivors)} survivors against {' '.join(sub)}",
                  flush=True)
            second_pass(survivors, inproc, sub)
    rows = table(modules)
    if a.json:
        a.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
