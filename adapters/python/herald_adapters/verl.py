"""Run a verl custom reward function over herald's requests, called as verl's reward managers call it.

    python3 -m herald_adapters.verl FILE[:FUNCTION] [--solution response|prompt+response]
                                    [--reward-kwargs JSON] [--batched] [--batch-size N]

One call per request, `FUNCTION(data_source=, solution_str=, ground_truth=, extra_info=)` (the
naive reward manager's call; FUNCTION defaults to verl's `compute_score`), or with --batched the
batch reward manager's call, `FUNCTION(data_sources=[…], solution_strs=[…], ground_truths=[…],
extra_infos=[…])` returning one score per item. A score may be a number or a dict holding "score",
as verl accepts both. --solution prompt+response hands over the logged prompt and the response
joined, which is what Search-R1's fork decodes and scores. --reward-kwargs passes further keyword
arguments to every call, as verl's `custom_reward_function.reward_kwargs` does (a run's weights).
"""
import argparse
import json

from . import protocol

NOT_VERL = ("the request has no verl object: the pool was not read through a verl-family format "
            "(from verl(…), skyrl, r1_searcher), it was read as %s")


def arguments(verl, solution):
    """The keyword arguments of one item, from the request's verl object."""
    text = verl.get("solution_str") or ""
    if solution == "prompt+response":
        if verl.get("prompt_str") is None:
            raise protocol.AnswerError("--solution prompt+response: the log holds no prompt for this rollout")
        text = verl["prompt_str"] + text
    return {"data_source": verl.get("data_source"), "solution_str": text,
            "ground_truth": verl.get("ground_truth"), "extra_info": verl.get("extra_info")}


def prepared(request, solution):
    """The item's arguments, or the AnswerError that answers it."""
    verl = request.get("verl")
    if not isinstance(verl, dict):
        return protocol.AnswerError(NOT_VERL % (request.get("format") or "a pool file"))
    try:
        return arguments(verl, solution)
    except protocol.AnswerError as exc:
        return exc


def score_of(result):
    """verl takes a dict result's "score" and logs the rest as extra info."""
    if isinstance(result, dict):
        if "score" not in result:
            raise protocol.AnswerError("the reward returned a dict without \"score\" (keys: %s)" % ", ".join(map(str, result)))
        return result["score"]
    return result


def one_by_one(solution, extra):
    def score(functions, requests):
        item = prepared(requests[0], solution)
        if isinstance(item, protocol.AnswerError):
            return [item]
        return [score_of(functions[0](**item, **extra))]
    return score


def batched(solution, extra):
    def score(functions, requests):
        items = [prepared(r, solution) for r in requests]
        good = [i for i in items if not isinstance(i, protocol.AnswerError)]
        if not good:
            return items
        results = functions[0](data_sources=[i["data_source"] for i in good], solution_strs=[i["solution_str"] for i in good],
                               ground_truths=[i["ground_truth"] for i in good], extra_infos=[i["extra_info"] for i in good], **extra)
        results = list(results)
        if len(results) != len(good):
            raise protocol.AnswerError("the reward returned %d scores for a batch of %d" % (len(results), len(good)))
        scores = iter(results)
        return [i if isinstance(i, protocol.AnswerError) else _score_or_error(next(scores)) for i in items]
    return score


def _score_or_error(result):
    try:
        return score_of(result)
    except protocol.AnswerError as exc:
        return exc


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m herald_adapters.verl", description="Score herald's requests with a verl reward function.")
    parser.add_argument("target", metavar="FILE[:FUNCTION]", help="the reward file (relative to the working folder) and its function, compute_score by default")
    parser.add_argument("--solution", choices=["response", "prompt+response"], default="response",
                        help="solution_str: the response (verl) or the logged prompt joined with it (Search-R1)")
    parser.add_argument("--reward-kwargs", default="{}", metavar="JSON",
                        help="a JSON object of further keyword arguments for every call (verl's custom_reward_function.reward_kwargs)")
    parser.add_argument("--batched", action="store_true", help="call the function on lists, as verl's batch reward manager does")
    parser.add_argument("--batch-size", type=int, default=64, metavar="N", help="requests per call with --batched (default 64)")
    args = parser.parse_args(argv)
    if args.batch_size < 1:
        parser.error("--batch-size must be at least 1")
    try:
        extra = json.loads(args.reward_kwargs)
    except ValueError as exc:
        parser.error("--reward-kwargs is not JSON: %s" % exc)
    if not isinstance(extra, dict):
        parser.error("--reward-kwargs must be a JSON object of keyword arguments")
    if args.batched:
        protocol.main(args.target, batched(args.solution, extra), args.batch_size, default="compute_score")
    else:
        protocol.main(args.target, one_by_one(args.solution, extra), 1, default="compute_score")


if __name__ == "__main__":
    main()
