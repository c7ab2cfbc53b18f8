"""The simulator settings of the subcommands (--soc, --cores, --threads), with errors that
name the option the user typed rather than the setter's argument."""

from __future__ import annotations


def apply(soc=None, cores=None, threads=None) -> None:
    from .. import sim

    for option, setter, value in (("--soc", sim.set_soc, soc), ("--cores", sim.set_cores, cores),
                                  ("--threads", sim.set_threads, threads)):
        if value is None:
            continue
        try:
            setter(value)
        except (TypeError, ValueError) as e:
            # The setters' messages start with their own argument's name ("name: ...").
            raise type(e)(f"{option}: {str(e).split(': ', 1)[-1]}") from None
