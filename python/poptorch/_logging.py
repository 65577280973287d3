"""poptorch's logger: `poptorch.logger`, a standard `logging.Logger` named "poptorch" whose
level comes from POPTORCH_LOG_LEVEL (TRACE, DEBUG, INFO, WARN, ERR, OFF) as in PopTorch."""
import logging
import os

logger = logging.getLogger("poptorch")

_LEVELS = {
    "TRACE": logging.DEBUG,
    "TRACE_ALL": logging.DEBUG,
    "DEBUG": logging.DEBUG,
    "INFO": logging.INFO,
    "WARN": logging.WARNING,
    "ERR": logging.ERROR,
    "OFF": logging.CRITICAL + 1,
}


def _configure():
    name = os.environ.get("POPTORCH_LOG_LEVEL", "WARN").upper()
    if name not in _LEVELS:
        raise ValueError(f"POPTORCH_LOG_LEVEL '{name}' is not one of {', '.join(_LEVELS)}")
    logger.setLevel(_LEVELS[name])
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("[poptorch:%(levelname)s] %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False


_configure()


def setLogLevel(level):
    """Sets the logger's level: a name of POPTORCH_LOG_LEVEL or a `logging` level number."""
    if isinstance(level, str):
        if level.upper() not in _LEVELS:
            raise ValueError(f"log level '{level}' is not one of {', '.join(_LEVELS)}")
        level = _LEVELS[level.upper()]
    logger.setLevel(level)
