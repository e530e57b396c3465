"""Run TRL reward functions over herald's requests, summed as GRPOTrainer sums them.

    python3 -m herald_adapters.trl FILE:FUNC[,FUNC…] [--weights W,W…] [--batch-size N]
                                   [--kwarg NAME=SOURCE …]

Each FUNC is called on a batch, `FUNC(prompts=[…], completions=[…], trajectory_id=[…], **columns)`,
and returns one reward per completion; the value is Σ weight·reward (weights 1 by default, as
GRPOTrainer's reward_weights). TRL records a None reward as NaN and skips it in the sum; herald needs
a number, so None is an error answer. Prompts and completions come from the request's `trl` object
(a pool read `from trl`), else from its chat `messages`: the messages before the first assistant
message are the prompt, the rest the completion. --kwarg hands a dataset column to the functions as
TRL does: SOURCE is gold.answers, gold.answer (the first), question, or meta.PATH.
"""
import argparse

from . import protocol

SOURCES = "gold.answers, gold.answer, question or meta.PATH"


def column(source):
    """The reader of one --kwarg SOURCE from a request's row; a value the row lacks is None (a
    visible field's request carries no gold)."""
    if source == "gold.answers":
        return lambda row: (row.get("gold") or {}).get("answers")
    if source == "gold.answer":
        return lambda row: ((row.get("gold") or {}).get("answers") or [None])[0]
    if source == "question":
        return lambda row: row.get("question")
    if source.startswith("meta.") and len(source) > 5:
        path = source[5:].split(".")

        def read(row):
            value = row.get("meta")
            for key in path:
                value = value.get(key) if isinstance(value, dict) else None
            return value
        return read
    raise ValueError(source)


def conversation(request):
    """(prompt, completion) of one request, or the AnswerError that answers it."""
    trl = request.get("trl")
    if isinstance(trl, dict):
        return trl.get("prompt"), trl.get("completion")
    messages = request.get("messages")
    if isinstance(messages, list):
        first = next((k for k, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"), len(messages))
        return messages[:first], messages[first:]
    return protocol.AnswerError("the request has neither a trl object nor messages: the pool was read as %s, "
                                "not from trl or a chat format" % (request.get("format") or "a pool file"))


def summed(names, weights, columns):
    def score(functions, requests):
        items = [conversation(r) for r in requests]
        good = [k for k, i in enumerate(items) if not isinstance(i, protocol.AnswerError)]
        if not good:
            return items
        kwargs = {name: [read(requests[k].get("row") or {}) for k in good] for name, read in columns.items()}
        kwargs["trajectory_id"] = [requests[k].get("trajectory_id") for k in good]
        totals = {k: 0.0 for k in good}
        for name, weight, fn in zip(names, weights, functions):
            rewards = list(fn(prompts=[items[k][0] for k in good], completions=[items[k][1] for k in good], **kwargs))
            if len(rewards) != len(good):
                raise protocol.AnswerError("%s returned %d rewards for %d completions" % (name, len(rewards), len(good)))
            for k, reward in zip(good, rewards):
                if isinstance(totals[k], protocol.AnswerError):
                    continue
                if reward is None:
                    totals[k] = protocol.AnswerError("%s returned None for this completion (TRL would skip it as NaN; herald needs a number)" % name)
                    continue
                try:
                    totals[k] += weight * float(protocol.checked(reward))
                except protocol.AnswerError as exc:
                    totals[k] = protocol.AnswerError("%s: %s" % (name, exc))
        return [totals.get(k, items[k]) for k in range(len(items))]
    return score


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m herald_adapters.trl", description="Score herald's requests with TRL reward functions, weighted and summed.")
    parser.add_argument("target", metavar="FILE:FUNC[,FUNC…]", help="the reward file (relative to the working folder) and its reward functions")
    parser.add_argument("--weights", metavar="W,W…", help="one weight per function (default 1 each)")
    parser.add_argument("--batch-size", type=int, default=64, metavar="N", help="completions per call (default 64)")
    parser.add_argument("--kwarg", action="append", default=[], metavar="NAME=SOURCE", help="pass a dataset column: SOURCE is " + SOURCES)
    args = parser.parse_args(argv)
    names = protocol.split_target(args.target)[1]
    weights = [1.0] * len(names)
    if args.weights is not None:
        try:
            weights = [float(w) for w in args.weights.split(",")]
        except ValueError:
            parser.error("--weights: numbers separated by commas (got %s)" % args.weights)
        if len(weights) != len(names):
            parser.error("--weights: %d weights for %d functions" % (len(weights), len(names)))
    columns = {}
    for spec in args.kwarg:
        name, _, source = spec.partition("=")
        try:
            columns[name] = column(source)
        except ValueError:
            parser.error("--kwarg %s: SOURCE is %s" % (spec, SOURCES))
        if not name.isidentifier() or name in ("prompts", "completions", "trajectory_id"):
            parser.error("--kwarg %s: NAME must be an identifier other than prompts, completions, trajectory_id" % spec)
    if args.batch_size < 1:
        parser.error("--batch-size must be at least 1")
    protocol.main(args.target, summed(names, weights, columns), args.batch_size)


if __name__ == "__main__":
    main()
