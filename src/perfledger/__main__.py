"""`python -m perfledger`: the `perfledger` command."""

from perfledger.flows.cli import main

if __name__ == "__main__":
    main()
