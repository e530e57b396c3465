"""Run a plain Python function over herald's requests: the simplest way to bring one's own code.

    python3 -m herald_adapters.callable FILE:FUNC [--request]

FUNC(row) gets the request's row (the trajectory in herald's pool form: question, steps, final,
gold, meta) and returns a number or a bool; with --request it gets the whole request instead
(format, verl, trl, messages, row), for code that reads what the framework logged.
"""
import argparse

from . import protocol


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m herald_adapters.callable", description="Score herald's requests with FUNC(row).")
    parser.add_argument("target", metavar="FILE:FUNC", help="the file (relative to the working folder) and its function")
    parser.add_argument("--request", action="store_true", help="pass the whole request, not its row")
    args = parser.parse_args(argv)

    def score(functions, requests):
        request = requests[0]
        if args.request:
            return [functions[0](request)]
        if not isinstance(request.get("row"), dict):
            return [protocol.AnswerError("the request has no row")]
        return [functions[0](request["row"])]

    protocol.main(args.target, score)


if __name__ == "__main__":
    main()
