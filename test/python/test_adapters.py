"""The Python adapters (adapters/python/herald_adapters), run as herald runs them: a subprocess fed
request lines on stdin, answering on stdout. And the sample reward samples/search-r1/qa_em_format.py
against the scores its logs hold.

    npm run test:python        (python3 -m unittest discover -s test/python -v)
"""
import glob
import importlib.util
import json
import os
import select
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.dont_write_bytecode = True
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ADAPTERS = os.path.join(REPO, "adapters", "python")
TIMEOUT = 30


def environment():
    env = dict(os.environ, PYTHONPATH=ADAPTERS, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONSTARTUP", None)
    return env


def run(adapter, args, requests, cwd):
    """Run `python3 -m herald_adapters.ADAPTER ARGS` on the request lines; (answers by request number, stderr, status)."""
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run([sys.executable, "-m", "herald_adapters." + adapter] + args, input=lines.encode(), cwd=cwd,
                          env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    answers = [json.loads(line) for line in done.stdout.decode().splitlines() if line.strip()]
    by_number = {a["request"]: a for a in answers}
    if done.returncode == 0:
        assert len(by_number) == len(answers) == len(requests), "every request is answered exactly once: %r" % answers
    return by_number, done.stderr.decode(), done.returncode


def verl_request(n, solution, **more):
    verl = {"data_source": "nq", "solution_str": solution, "ground_truth": {"target": ["x"]}, "extra_info": {"k": 1}, "prompt_str": "P:"}
    verl.update(more)
    return {"request": n, "trajectory_id": "t#%d" % n, "format": "verl", "verl": verl, "row": {"id": "t", "question": "q?"}}


class AdapterTest(unittest.TestCase):
    """Each test writes its reward files into a fresh folder, which is the command's working folder."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, source):
        with open(os.path.join(self.dir.name, name), "w") as f:
            f.write(textwrap.dedent(source))

    def run_adapter(self, adapter, args, requests):
        return run(adapter, args, requests, self.dir.name)

    def values(self, answers):
        for a in answers.values():
            self.assertNotIn("error", a, a)
        return [answers[n]["value"] for n in sorted(answers)]


class VerlTest(AdapterTest):
    def setUp(self):
        super().setUp()
        self.write("helper.py", """\
            def divide(a, b):
                return a / b
            """)
        self.write("reward.py", """\
            import math
            from helper import divide

            def compute_score(data_source, solution_str, ground_truth, extra_info=None):
                print("a print goes to stderr")
                if solution_str == "boom":
                    return 1 / 0
                if solution_str == "deep":
                    return divide(1, 0)
                if solution_str.startswith("value:"):
                    return eval(solution_str[6:], {"math": math, "Item": Item, "Num": Num})
                return {"data_source": data_source, "solution": solution_str, "gold": ground_truth["target"][0], "k": extra_info["k"]}

            def lengths(data_source, solution_str, ground_truth, extra_info=None):
                return len(solution_str)

            def batch(data_sources, solution_strs, ground_truths, extra_infos):
                if "boom" in solution_strs:
                    raise ValueError("bad batch")
                return [{"score": len(solution_strs)} if s == "dict" else len(solution_strs) for s in solution_strs]

            class Item:
                # A numpy scalar or a 0-d tensor: read through .item().
                def __init__(self, v):
                    self.v = v
                def item(self):
                    return self.v

            class Num:
                def __float__(self):
                    return 2.5
            """)

    def test_calls_compute_score_with_verls_keyword_arguments(self):
        self.write("echo.py", """\
            import json
            def compute_score(data_source, solution_str, ground_truth, extra_info=None):
                return len(json.dumps([data_source, solution_str, ground_truth, extra_info]))
            """)
        answers, _, status = self.run_adapter("verl", ["echo.py"], [verl_request(0, "resp")])
        self.assertEqual(status, 0)
        self.assertEqual(self.values(answers), [len(json.dumps(["nq", "resp", {"target": ["x"]}, {"k": 1}]))])

    def test_a_named_function_and_the_prompt_joined_on(self):
        answers, _, _ = self.run_adapter("verl", ["reward.py:lengths"], [verl_request(0, "abc")])
        self.assertEqual(self.values(answers), [3])
        answers, _, _ = self.run_adapter("verl", ["reward.py:lengths", "--solution", "prompt+response"], [verl_request(0, "abc")])
        self.assertEqual(self.values(answers), [5])
        answers, _, _ = self.run_adapter("verl", ["reward.py:lengths", "--solution", "prompt+response"], [verl_request(0, "abc", prompt_str=None)])
        self.assertIn("no prompt", answers[0]["error"])

    def test_a_dict_result_gives_its_score(self):
        answers, _, _ = self.run_adapter("verl", ["reward.py"], [verl_request(0, "value:{'score': 0.75, 'acc': 1}"), verl_request(1, "value:{'acc': 1}")])
        self.assertEqual(answers[0], {"request": 0, "value": 0.75})
        self.assertIn('without "score"', answers[1]["error"])

    def test_an_exception_names_the_users_file_and_line_and_the_adapter_goes_on(self):
        answers, stderr, status = self.run_adapter("verl", ["reward.py"], [verl_request(0, "boom"), verl_request(1, "deep"), verl_request(2, "value:0.5")])
        self.assertEqual(status, 0)
        self.assertEqual(answers[0], {"request": 0, "error": "ZeroDivisionError: division by zero (reward.py:7)"})
        # Raised in a module the file imports: the innermost frame in the user's file is its call.
        self.assertEqual(answers[1], {"request": 1, "error": "ZeroDivisionError: division by zero (reward.py:9)"})
        self.assertEqual(answers[2], {"request": 2, "value": 0.5})
        self.assertIn("a print goes to stderr", stderr)
        self.assertEqual(stderr.strip().splitlines()[-1], "3 requests answered")

    def test_values_that_are_not_finite_numbers_are_error_answers(self):
        cases = ["math.nan", "math.inf", "'0.5'", "None", "[1.0, 2.0]", "Item([1, 2])"]
        answers, _, _ = self.run_adapter("verl", ["reward.py"], [verl_request(n, "value:" + c) for n, c in enumerate(cases)])
        errors = [answers[n].get("error", "") for n in range(len(cases))]
        self.assertIn("nan, not a finite number", errors[0])
        self.assertIn("inf, not a finite number", errors[1])
        self.assertIn("str '0.5'", errors[2])
        self.assertIn("NoneType None", errors[3])
        self.assertIn("list [1.0, 2.0]", errors[4])
        self.assertIn("not a number", errors[5])

    def test_bools_numbers_and_duck_typed_scalars_are_values(self):
        cases = ["True", "False", "3", "0.25", "Item(0.5)", "Item(True)", "Num()"]
        answers, _, _ = self.run_adapter("verl", ["reward.py"], [verl_request(n, "value:" + c) for n, c in enumerate(cases)])
        self.assertEqual(self.values(answers), [True, False, 3, 0.25, 0.5, True, 2.5])

    def test_a_request_without_a_verl_object_names_the_formats(self):
        answers, _, _ = self.run_adapter("verl", ["reward.py"], [{"request": 0, "format": "trl", "trl": {}, "row": {}}])
        self.assertIn("not read through a verl-family format", answers[0]["error"])
        self.assertIn("read as trl", answers[0]["error"])

    def test_batched_calls_take_batch_size_requests_and_a_partial_last_batch(self):
        requests = [verl_request(n, "dict" if n == 1 else "s") for n in range(5)]
        answers, _, _ = self.run_adapter("verl", ["reward.py:batch", "--batched", "--batch-size", "2"], requests)
        self.assertEqual(self.values(answers), [2, 2, 2, 2, 1])
        answers, _, _ = self.run_adapter("verl", ["reward.py:batch", "--batched"], requests)
        self.assertEqual(self.values(answers), [5] * 5)

    def test_batched_a_request_without_verl_fails_alone_and_an_exception_fails_its_batch(self):
        requests = [verl_request(0, "s"), {"request": 1, "format": None, "row": {}}, verl_request(2, "s"), verl_request(3, "boom")]
        answers, _, _ = self.run_adapter("verl", ["reward.py:batch", "--batched", "--batch-size", "3"], requests)
        self.assertEqual(answers[0]["value"], 2)
        self.assertIn("read as a pool file", answers[1]["error"])
        self.assertEqual(answers[2]["value"], 2)
        self.assertEqual(answers[3]["error"], "ValueError: bad batch (reward.py:19)")

    def test_answers_stream_before_stdin_closes(self):
        with Streaming(self, "verl", ["reward.py:lengths"]) as s:
            for n, text in enumerate(["a", "bb", "ccc"]):
                s.send(verl_request(n, text))
                self.assertEqual(s.answer(), {"request": n, "value": len(text)})

    def test_a_partial_batch_is_answered_when_stdin_goes_quiet(self):
        with Streaming(self, "verl", ["reward.py:batch", "--batched", "--batch-size", "64"]) as s:
            s.send(verl_request(0, "s"))
            s.send(verl_request(1, "s"))
            self.assertEqual([s.answer(), s.answer()], [{"request": 0, "value": 2}, {"request": 1, "value": 2}])

    def test_a_file_that_cannot_be_imported_exits_2_with_its_traceback(self):
        self.write("broken.py", "import no_such_module_here\n")
        answers, stderr, status = self.run_adapter("verl", ["broken.py"], [verl_request(0, "s")])
        self.assertEqual((status, answers), (2, {}))
        self.assertIn("Traceback", stderr)
        self.assertIn("No module named 'no_such_module_here'", stderr)

    def test_a_missing_file_or_function_exits_2(self):
        for target, said in [("nowhere.py", "no reward file nowhere.py"), ("reward.py:nothing", "has no function nothing")]:
            answers, stderr, status = self.run_adapter("verl", [target], [verl_request(0, "s")])
            self.assertEqual((status, answers), (2, {}))
            self.assertIn(said, stderr)

    def test_a_line_that_is_not_a_request_exits_3(self):
        done = subprocess.run([sys.executable, "-m", "herald_adapters.verl", "reward.py"], input=b"[1, 2]\n", cwd=self.dir.name,
                              env=environment(), capture_output=True, timeout=TIMEOUT)
        self.assertEqual(done.returncode, 3)
        self.assertIn("not a request line", done.stderr.decode())

    def test_the_files_folder_goes_first_on_the_path(self):
        os.mkdir(os.path.join(self.dir.name, "sub"))
        self.write("sub/helper.py", "def divide(a, b):\n    return 42\n")
        self.write("sub/r.py", "from helper import divide\ndef compute_score(**kw):\n    return divide(1, 0)\n")
        answers, _, _ = self.run_adapter("verl", ["sub/r.py"], [verl_request(0, "s")])
        self.assertEqual(self.values(answers), [42])


class TrlTest(AdapterTest):
    def setUp(self):
        super().setUp()
        self.write("rewards.py", """\
            import json

            def count(prompts, completions, **kwargs):
                return [len(prompts) for _ in completions]

            def shape(prompts, completions, **kwargs):
                return [len(json.dumps(p)) * 1000 + len(json.dumps(c)) for p, c in zip(prompts, completions)]

            def kwargs_seen(prompts, completions, **kwargs):
                return [len(json.dumps(sorted(kwargs.items()))) for _ in completions]

            def echo(prompts, completions, trajectory_id, answers, answer, question, level, **kwargs):
                return [len(json.dumps([t, a, b, q, l])) for t, a, b, q, l in zip(trajectory_id, answers, answer, question, level)]

            def maybe(prompts, completions, **kwargs):
                return [None if c == "none" else 1.0 for c in completions]
            """)

    def request(self, n, completion="c", **extra):
        row = {"id": "t", "question": "q%d?" % n, "gold": {"answers": ["yes", "no"]}, "meta": {"a": {"b": n}}}
        request = {"request": n, "trajectory_id": "t#%d" % n, "format": "trl", "trl": {"prompt": "p", "completion": completion}, "row": row}
        request.update(extra)
        return request

    def test_weighted_sum_of_the_functions(self):
        requests = [self.request(n) for n in range(3)]
        answers, _, _ = self.run_adapter("trl", ["rewards.py:count,maybe", "--weights", "2,0.5"], requests)
        self.assertEqual(self.values(answers), [6.5, 6.5, 6.5])
        answers, _, _ = self.run_adapter("trl", ["rewards.py:count,maybe"], requests)
        self.assertEqual(self.values(answers), [4.0, 4.0, 4.0])

    def test_batches_of_batch_size_and_a_partial_last_one(self):
        answers, _, _ = self.run_adapter("trl", ["rewards.py:count", "--batch-size", "2"], [self.request(n) for n in range(5)])
        self.assertEqual(self.values(answers), [2, 2, 2, 2, 1])

    def test_prompt_and_completion_from_trl_else_from_messages(self):
        messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}, {"role": "assistant", "content": "a"}, {"role": "tool", "content": "t"}]
        chat = {"request": 1, "trajectory_id": "c", "format": "messages", "messages": messages, "row": {}}
        neither = {"request": 2, "trajectory_id": "n", "format": None, "row": {}}
        answers, _, _ = self.run_adapter("trl", ["rewards.py:shape"], [self.request(0), chat, neither])
        self.assertEqual(answers[0]["value"], 3 * 1000 + 3)
        self.assertEqual(answers[1]["value"], len(json.dumps(messages[:2])) * 1000 + len(json.dumps(messages[2:])))
        self.assertIn("neither a trl object nor messages", answers[2]["error"])

    def test_none_is_an_error_answer_for_that_completion_alone(self):
        answers, _, _ = self.run_adapter("trl", ["rewards.py:count,maybe"], [self.request(0), self.request(1, "none")])
        self.assertEqual(answers[0]["value"], 3.0)
        self.assertIn("maybe returned None", answers[1]["error"])

    def test_kwargs_from_the_row_and_the_trajectory_id(self):
        args = ["rewards.py:echo", "--kwarg", "answers=gold.answers", "--kwarg", "answer=gold.answer",
                "--kwarg", "question=question", "--kwarg", "level=meta.a.b"]
        visible = self.request(1)
        del visible["row"]["gold"]
        answers, _, _ = self.run_adapter("trl", args, [self.request(0), visible])
        self.assertEqual(answers[0]["value"], len(json.dumps(["t#0", ["yes", "no"], "yes", "q0?", 0])))
        # A visible field's request has no gold: the column is None.
        self.assertEqual(answers[1]["value"], len(json.dumps(["t#1", None, None, "q1?", 1])))
        answers, _, _ = self.run_adapter("trl", ["rewards.py:kwargs_seen"], [self.request(0)])
        self.assertEqual(answers[0]["value"], len(json.dumps([["trajectory_id", ["t#0"]]])))

    def test_a_bad_kwarg_source_or_weights_exit_2(self):
        for args in (["--kwarg", "x=row.id"], ["--weights", "1,2"], ["--weights", "one"]):
            answers, stderr, status = self.run_adapter("trl", ["rewards.py:count"] + args, [self.request(0)])
            self.assertEqual((status, answers), (2, {}), stderr)

    def test_the_functions_must_be_named(self):
        _, stderr, status = self.run_adapter("trl", ["rewards.py"], [self.request(0)])
        self.assertEqual(status, 2)
        self.assertIn("FILE:FUNCTION", stderr)


class CallableTest(AdapterTest):
    def setUp(self):
        super().setUp()
        self.write("judge.py", """\
            def answered(row):
                return row["final"] is not None

            def length(row):
                return len(row["question"])

            def whole(request):
                return request["request"] * 10 + len(request["format"])

            def broken(row):
                return row["missing"]
            """)

    def request(self, n, final):
        return {"request": n, "trajectory_id": "t", "format": "messages", "row": {"question": "why?", "final": final}}

    def test_row_values_and_bools(self):
        requests = [self.request(0, None), self.request(1, {"answer": "x"})]
        answers, _, _ = self.run_adapter("callable", ["judge.py:answered"], requests)
        self.assertEqual(self.values(answers), [False, True])
        answers, _, _ = self.run_adapter("callable", ["judge.py:length"], requests)
        self.assertEqual(self.values(answers), [4, 4])

    def test_the_whole_request(self):
        answers, _, _ = self.run_adapter("callable", ["judge.py:whole", "--request"], [self.request(0, None), self.request(1, None)])
        self.assertEqual(self.values(answers), [8, 18])

    def test_an_exception_names_the_line(self):
        answers, _, _ = self.run_adapter("callable", ["judge.py:broken"], [self.request(0, None)])
        self.assertEqual(answers[0]["error"], "KeyError: 'missing' (judge.py:11)")


class UsageTest(unittest.TestCase):
    def test_the_package_lists_its_adapters(self):
        done = subprocess.run([sys.executable, "-m", "herald_adapters", "--help"], env=environment(), capture_output=True, timeout=TIMEOUT)
        self.assertEqual(done.returncode, 0)
        for adapter in ("verl", "trl", "callable"):
            self.assertIn("  %s " % adapter, done.stdout.decode())


class Streaming:
    """An adapter process fed one request at a time: each answer must arrive while stdin is open."""

    def __init__(self, test, adapter, args):
        self.test = test
        self.proc = subprocess.Popen([sys.executable, "-m", "herald_adapters." + adapter] + args, cwd=test.dir.name, env=environment(),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.stdin.close()
        self.proc.wait(TIMEOUT)
        self.proc.stdout.close()

    def send(self, request):
        self.proc.stdin.write((json.dumps(request) + "\n").encode())

    def answer(self):
        line = b""
        while not line.endswith(b"\n"):
            ready = select.select([self.proc.stdout], [], [], TIMEOUT)[0]
            if not ready:
                self.proc.kill()
                self.test.fail("no answer within %d s while stdin is open" % TIMEOUT)
            byte = self.proc.stdout.read(1)
            if not byte:
                self.test.fail("the adapter closed stdout")
            line += byte
        return json.loads(line)


def sample_reward():
    path = os.path.join(REPO, "samples", "search-r1", "qa_em_format.py")
    spec = importlib.util.spec_from_file_location("qa_em_format", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def logged_rows(folder):
    """(file:line, record) of every line of every verl dump in a sample's log folder."""
    rows = []
    for path in sorted(glob.glob(os.path.join(REPO, folder, "*.jsonl"))):
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.strip():
                    rows.append(("%s:%d" % (os.path.relpath(path, REPO), number), json.loads(line)))
    return rows


class QaEmFormatSampleTest(unittest.TestCase):
    """samples/search-r1/qa_em_format.py against the scores logged by the sample generators, which
    score the rollouts independently (samples/generator/search-r1-dump.ts, real-rewards-logs.ts)."""

    reward = sample_reward()

    def mismatches(self, rows, score):
        return [(where, r["score"], score(r)) for where, r in rows if score(r) != r["score"]]

    def test_the_real_rewards_log_is_scored_exactly_with_the_trained_weights(self):
        rows = logged_rows("samples/real-rewards/logs/search_r1_qa_em_format")
        self.assertEqual(len(rows), 240)
        score = lambda r: self.reward.compute_score(data_source=None, solution_str=r["input"] + r["output"], ground_truth=r["gts"])
        self.assertEqual(self.mismatches(rows, score), [])

    def test_the_search_r1_rollouts_are_scored_exactly_with_the_samples_retrieval_weight(self):
        # The sample's generator gives a well-formed rollout whose <information> holds a gold answer
        # retrieval_score 0.1 (searchR1Weights in search-r1-dump.ts; search-r1.reward says so).
        rows = logged_rows("samples/search-r1/rollout")
        self.assertEqual(len(rows), 400)
        score = lambda r: self.reward.compute_score_em(r["input"] + r["output"], r["gts"], retrieval_score=0.1)
        self.assertEqual(self.mismatches(rows, score), [])

    def test_with_the_trained_weights_the_search_r1_rollouts_differ_by_the_retrieval_term_alone(self):
        rows = logged_rows("samples/search-r1/rollout")
        reward = self.reward
        score = lambda r: reward.compute_score(data_source=None, solution_str=r["input"] + r["output"], ground_truth=r["gts"])
        differing = self.mismatches(rows, score)
        self.assertEqual((len(rows) - len(differing), len(differing)), (259, 141))
        records = dict(rows)
        for where, logged, computed in differing:
            text, golds = records[where]["input"] + records[where]["output"], records[where]["gts"]["target"]
            self.assertTrue(reward.valid_format(text) and reward.retrieval_correct(text, golds), where)
            self.assertAlmostEqual(logged - computed, 0.1, places=12, msg=where)

    def test_the_verl_adapter_runs_it_over_the_logs_as_herald_would(self):
        rows = logged_rows("samples/real-rewards/logs/search_r1_qa_em_format")
        requests = [{"request": n, "trajectory_id": where, "format": "verl",
                     "verl": {"data_source": None, "solution_str": r["output"], "ground_truth": r["gts"], "extra_info": None, "prompt_str": r["input"]},
                     "row": {}} for n, (where, r) in enumerate(rows)]
        answers, _, status = run("verl", ["qa_em_format.py", "--solution", "prompt+response"], requests, os.path.join(REPO, "samples", "search-r1"))
        self.assertEqual(status, 0)
        self.assertEqual([answers[n].get("value") for n in range(len(rows))], [r["score"] for _, r in rows])


if __name__ == "__main__":
    unittest.main()
