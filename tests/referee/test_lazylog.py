"""`referee.lazylog`: a logger that imports `logging` when it first logs, with the same
records as `logging.getLogger(name)` would make (issue 41: the box's first frame without it)."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

from referee.lazylog import Logger

log = Logger("tests.lazylog")


def _here() -> int:
    return sys._getframe(1).f_lineno


@pytest.mark.parametrize("level", ["debug", "info", "warning", "error"])
def test_a_record_is_the_callers(caplog: pytest.LogCaptureFixture, level: str) -> None:
    caplog.set_level(logging.DEBUG, logger="tests.lazylog")
    getattr(log, level)("said %s to %r", "hello", "Zoë"); line = _here()  # noqa: E702
    (record,) = caplog.records
    assert record.name == "tests.lazylog" and record.levelname == level.upper()
    assert record.getMessage() == "said hello to 'Zoë'"
    assert (record.pathname, record.lineno, record.funcName) == (
        __file__, line, "test_a_record_is_the_callers")


def test_an_exception_is_logged_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    try:
        raise ValueError("bad die")
    except ValueError:
        log.exception("the roll failed"); line = _here()  # noqa: E702
    (record,) = caplog.records
    assert record.levelno == logging.ERROR and record.lineno == line
    assert record.exc_info is not None and record.exc_info[0] is ValueError
    assert "bad die" in caplog.text


def _fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)


def test_logging_is_imported_and_set_up_when_first_used() -> None:
    done = _fresh(
        "import sys\n"
        "from referee.lazylog import Logger, basic_config\n"
        "log = Logger('x')\n"
        "basic_config(level='INFO', format='box: %(message)s')\n"
        "print('logging' in sys.modules)\n"
        "log.debug('not shown')\n"
        "log.info('shown %d', 1)\n"
        "print('logging' in sys.modules)\n")
    assert done.stdout.split() == ["False", "True"]
    assert done.stderr == "box: shown 1\n"


def test_settle_sets_up_what_a_library_logs_later() -> None:
    done = _fresh(
        "from referee.lazylog import basic_config, settle\n"
        "basic_config(level='INFO', format='box: %(message)s')\n"
        "settle()\n"
        "import logging\n"
        "logging.getLogger('gpiozero').warning('a library said %s', 'this')\n")
    assert done.stderr == "box: a library said this\n"


def test_with_logging_already_loaded_the_set_up_is_at_once() -> None:
    done = _fresh(
        "import logging\n"
        "from referee.lazylog import basic_config\n"
        "basic_config(level='INFO', format='box: %(message)s')\n"
        "logging.getLogger('other').info('at once')\n")
    assert done.stderr == "box: at once\n"
