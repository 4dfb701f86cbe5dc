"""The native module (Rust, pyo3): use the functions of `sgfaudit` instead."""

__version__: str

def audit(paths: list[str], options: list[tuple[str, str]]) -> tuple[bytes, bytes, bytes, str]:
    """Audits paths; returns the games, findings and divergences tables as Arrow IPC streams and the summary as JSON."""

def audit_contents(
    names: list[str], contents: list[bytes], options: list[tuple[str, str]]
) -> tuple[bytes, bytes, bytes, str]:
    """Audits contents in memory, named by `names`; returns what `audit` returns."""

def option_names() -> list[str]:
    """The option names `audit` and `audit_contents` accept."""
