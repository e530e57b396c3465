"""samples/search-r1/trained.reward end to end: herald runs Search-R1's Python reward through the verl
adapter (dist/herald.js, built by `npm run test:python`), the reward conforms to the score verl
logged and to the reward written in the language, the two give the same figures on the same edits,
and a second audit answers every trajectory from the cache.
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERALD = os.path.join(REPO, "dist", "herald.js")
SPEC = os.path.join(REPO, "samples", "search-r1", "trained.reward")


def audit(cache):
    done = subprocess.run(["node", HERALD, "audit", SPEC, "--allow-commands", "--format", "json", "--quiet"], cwd=REPO,
                          env=dict(os.environ, HERALD_CACHE_DIR=cache), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return done.returncode, json.loads(done.stdout.decode()), done.stderr.decode()


class TrainedSample(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cache = tempfile.mkdtemp(prefix="herald-terms-")
        cls.first = audit(cls.cache)
        cls.second = audit(cls.cache)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.cache, ignore_errors=True)

    def test_the_python_reward_is_the_logged_one_and_the_rewrite_is_exact(self):
        status, report, stderr = self.first
        self.assertEqual(status, 0, stderr)
        conformance = report["audits"][0]["conformance"]
        self.assertEqual([(c["subject"], c["reference"], c["rows"], c["differing"]) for c in conformance],
                         [("trained", "logged_score", 400, 0), ("search_r1", "trained", 400, 0)])

    def test_the_two_rewards_give_the_same_figures_on_every_attack(self):
        audit_report = self.first[1]["audits"][0]
        for attack in audit_report["attacks"]:
            by_reward = {}
            for result in attack["results"]:
                by_reward.setdefault(result["reward"], []).append((result["selection"], result["estimate"]))
            self.assertEqual(by_reward["trained"], by_reward["search_r1"], attack["name"])
        self.assertAlmostEqual(audit_report["certificate"][0]["maxGain"], 0.2, places=12)

    def test_every_original_and_edit_runs_once_then_nothing_runs(self):
        first = self.first[1]["audits"][0]["commandTerms"][0]
        second = self.second[1]["audits"][0]["commandTerms"][0]
        self.assertEqual((first["requests"], first["ran"]), (784, 784))
        self.assertEqual((second["requests"], second["ran"]), (784, 0))

    def test_no_bytecode_is_written_beside_the_reward(self):
        self.assertFalse(os.path.exists(os.path.join(REPO, "samples", "search-r1", "__pycache__")))


if __name__ == "__main__":
    unittest.main()
