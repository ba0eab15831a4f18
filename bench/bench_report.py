"""Time to build and render the demo's reports (result document, HTML, Markdown).

Run: PYTHONPATH=src python bench/bench_report.py [REPEATS]
Prints the best wall time of each step over REPEATS runs (the first line includes
the lazy imports of numpy/jinja2), then the same steps once on eval_bench's
synthetic 1,345 questions x 13 systems.
"""

import sys
import time

from assay.cli.demo_cmd import sample_dir
from assay.evaluation.compare import CompareOptions, result_document
from assay.evaluation.runs import SystemInput, evaluate
from assay.report.result.html import render_html
from assay.report.result.json import dumps_result
from assay.report.result.markdown import render_result_markdown
from assay.structured.example import score_bundled_example


def best(step, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times)


def main(repeats: int) -> None:
    source = sample_dir()
    files = sorted((source / "predictions").glob("*.jsonl"))
    systems = [SystemInput(f.stem, (str(f),)) for f in files]
    gold = [source / "qa_single_doc.jsonl", source / "qa_cross_doc.jsonl"]
    result = evaluate(gold, systems)
    structured = score_bundled_example().to_dict()
    start = time.perf_counter()
    document = result_document(result, structured=structured)
    html = render_html(document)
    print(f"first document + HTML render (incl. lazy imports): {time.perf_counter() - start:.3f} s")
    doc_t = best(lambda: result_document(result, structured=structured), repeats)
    html_t = best(lambda: render_html(document), repeats)
    md_t = best(lambda: render_result_markdown(document), repeats)
    json_t = best(lambda: dumps_result(document), repeats)
    print(f"result document (stats, 3 pairs x 10000 AR trials): {doc_t * 1000:.1f} ms")
    print(f"HTML render: {html_t * 1000:.1f} ms ({len(html) / 1000:.0f} kB)")
    print(f"Markdown render: {md_t * 1000:.1f} ms")
    print(f"JSON serialise: {json_t * 1000:.1f} ms")


def large(trials: int = 10000) -> None:
    """The same steps on eval_bench's synthetic 1,345 questions x 13 systems (78 pairs)."""
    import tempfile
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from eval_bench import write_benchmark

    with tempfile.TemporaryDirectory() as tmp:
        gold, files = write_benchmark(Path(tmp), 7)
        result = evaluate([gold], [SystemInput(f.stem, (str(f),)) for f in files])
        start = time.perf_counter()
        document = result_document(result, CompareOptions(n_resamples=trials))
        doc_t = time.perf_counter() - start
        start = time.perf_counter()
        html = render_html(document)
        html_t = time.perf_counter() - start
    print(f"1,345 x 13: result document (78 pairs x {trials} AR trials): {doc_t:.2f} s")
    print(f"1,345 x 13: HTML render: {html_t:.2f} s ({len(html) / 1e6:.1f} MB)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
    large()
