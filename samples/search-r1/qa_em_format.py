"""Search-R1's qa_em_format reward (compute_score_em), written for this sample from its documented
behaviour (samples/real-rewards/SOURCES.md, section 2; samples/real-rewards/search_r1_qa_em_format.reward).

Search-R1's fork of verl decodes prompt and response together and scores the joined text, so herald
runs this file with the prompt joined on:

    python3 -m herald_adapters.verl qa_em_format.py --solution prompt+response

The prompt template itself holds an example <answer> pair, which is why the answer is the last of at
least two pairs. Weights are those Search-R1 trained with (its v0.3 GRPO script); the source's own
defaults are all 0. This sample's rollouts (rollout/*.jsonl) were logged with retrieval_score 0.1
(search-r1.reward's weights), so `compute_score_em(text, gts, retrieval_score=0.1)` gives their
logged scores, and compute_score differs by that 0.1 on well-formed wrong answers whose
<information> holds a gold answer.
"""
import re
import string

STRUCTURE_FORMAT_SCORE = 0.2
FINAL_FORMAT_SCORE = 0.1
RETRIEVAL_SCORE = 0.0

TAG = re.compile(r"(</?(?:think|search|information|answer)>)")
ASSISTANT = re.compile(r"<\|im_start\|>assistant\s*")
# The format as a state machine over the tags: (state, tag) -> next state. Text outside a block
# must be whitespace; the sequence is think, then (search, information, think)*, then answer.
STEPS = {
    ("start", "<think>"): "in_think",
    ("after_information", "<think>"): "in_think",
    ("in_think", "</think>"): "after_think",
    ("after_think", "<search>"): "in_search",
    ("in_search", "</search>"): "after_search",
    ("after_search", "<information>"): "in_information",
    ("in_information", "</information>"): "after_information",
    ("after_think", "<answer>"): "in_answer",
    ("in_answer", "</answer>"): "end",
}
PUNCTUATION = set(string.punctuation)


def normalize_answer(text):
    """SQuAD's normalisation: lower case, no ASCII punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in PUNCTUATION)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def golds_of(ground_truth):
    target = ground_truth["target"]
    return [target] if isinstance(target, str) else list(target)


def extracted_answer(text):
    """The last <answer> block of prompt + response, stripped; None with fewer than two blocks (the
    prompt's example is one of them)."""
    answers = re.findall(r"<answer>(.*?)</answer>", text, re.DOTALL)
    return answers[-1].strip() if len(answers) >= 2 else None


def valid_format(text):
    """Whether the response (the text after the first assistant marker) follows the format."""
    marker = ASSISTANT.search(text)
    if marker is None:
        return False
    content = text[marker.end():]
    for name in ("think", "search", "information", "answer"):
        if content.count("<%s>" % name) != content.count("</%s>" % name):
            return False
    state = "start"
    for part in TAG.split(content):
        if not part.strip():
            continue
        if TAG.fullmatch(part):
            state = STEPS.get((state, part))
            if state is None:
                return False
        elif not state.startswith("in_"):
            return False
    return state == "end"


def retrieval_correct(text, golds):
    """Some <information> block, normalised, contains a normalised gold answer."""
    blocks = [normalize_answer(b.strip()) for b in re.findall(r"<information>(.*?)</information>", text, re.DOTALL)]
    return any(normalize_answer(g) in b for b in blocks for g in golds)


def compute_score_em(solution_str, ground_truth, structure_format_score=STRUCTURE_FORMAT_SCORE,
                     final_format_score=FINAL_FORMAT_SCORE, retrieval_score=RETRIEVAL_SCORE, score=1.0):
    golds = golds_of(ground_truth)
    valid = valid_format(solution_str)
    # What a well-formed rollout earns without the right answer (retrieval is checked only then).
    format_credit = structure_format_score + (retrieval_score if valid and retrieval_correct(solution_str, golds) else 0)
    answer = extracted_answer(solution_str)
    if answer is None:
        return format_credit if valid else 0
    if normalize_answer(answer) in {normalize_answer(g) for g in golds}:
        return score if valid else score - structure_format_score
    return format_credit if valid else final_format_score


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **weights):
    """verl's custom reward signature; solution_str is prompt + response (--solution prompt+response).
    A run's weights come as keyword arguments (verl's reward_kwargs; herald's --reward-kwargs)."""
    return compute_score_em(solution_str, ground_truth, **weights)
