"""PopTorch's exception types: `poptorch.Error` is the base (a RuntimeError, as PopTorch's),
`RecoverableError` leaves the model usable, `UnrecoverableError` does not. `location` names
the PyTorch module path or op the error is about, when known."""


class Error(RuntimeError):
    """An error of poptorch: `message` is the text, `location` the module path or op."""

    def __init__(self, message, location=""):
        super().__init__(message)
        self.message = message
        self.location = location
        self.type = "poptorch_error"


class RecoverableError(Error):

    def __init__(self, message, location=""):
        super().__init__(message, location)
        self.type = "recoverable_runtime_error"


class UnrecoverableError(Error):

    def __init__(self, message, location=""):
        super().__init__(message, location)
        self.type = "unrecoverable_runtime_error"
