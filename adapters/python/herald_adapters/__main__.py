"""`python3 -m herald_adapters` names the adapters; each is a module of its own."""
import sys

USAGE = """usage: python3 -m herald_adapters.ADAPTER ...

Adapters (herald runs one as a reward command; each reads requests on stdin, answers on stdout):
  verl      FILE[:FUNCTION] [--solution response|prompt+response] [--batched] [--batch-size N]
            a verl custom reward, compute_score(data_source, solution_str, ground_truth, extra_info)
  trl       FILE:FUNC[,FUNC...] [--weights W,W...] [--batch-size N] [--kwarg NAME=SOURCE ...]
            TRL reward functions f(prompts, completions, **kwargs) -> list, weighted and summed
  callable  FILE:FUNC [--request]
            a plain function f(row) -> number or bool (or f(request) with --request)

Run `python3 -m herald_adapters.ADAPTER --help` for one adapter's options.
"""

if __name__ == "__main__":
    asked = any(a in ("-h", "--help") for a in sys.argv[1:])
    (sys.stdout if asked else sys.stderr).write(USAGE)
    sys.exit(0 if asked else 2)
