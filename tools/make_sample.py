"""Regenerate the bundled fictional sample benchmark under src/assay/data/ (run by hand)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src" / "assay" / "data"
OUT = ROOT / "xlsample"
SMOKE = ROOT / "smoke"

DOCS = [
    ("D01", "Harbourline Transit Annual Report 2023", "finance", "annual_report", 84),
    ("D02", "Veltra Pharmaceuticals Phase II Trial Summary", "medical", "clinical_report", 46),
    ("D03", "Northmere City Council Budget 2024", "government", "budget", 120),
    ("D04", "Kestrel Aerospace KX-4 Technical Manual", "engineering", "manual", 212),
    (
        "D05",
        "Lumen Coffee Cooperative Sustainability Report",
        "environment",
        "sustainability_report",
        38,
    ),
    ("D06", "Orris University Admissions Handbook 2025", "education", "handbook", 64),
    ("D07", "Brightwater Energy Q3 2024 Earnings Presentation", "finance", "slides", 30),
    ("D08", "Tallis Freight Safety Audit 2022", "legal", "audit_report", 52),
]
DOC = {d[0]: d for d in DOCS}
RULE = {
    "Str": "casefold_exact_match",
    "List": "casefold_exact_match",
    "Bool": "casefold_exact_match",
    "Int": "numeric_tolerance",
    "Float": "numeric_tolerance",
    "None": "exact_match",
    "Percentage": "percentage_exact",
    "single_choice": "choice_exact_match",
}
NA = "Not answerable"
OVF = "!context_overflow"

# id, docs, pages per doc, question, value, format, reasoning, difficulty, evidence, preds (atlas, borealis, cirrus)
SINGLE = [
    (
        "S01",
        ["D01"],
        [[3]],
        "Who chairs the board of Harbourline Transit?",
        "Miriam Okafor",
        "Str",
        "extraction",
        "easy",
        ["text"],
        ("The chair of the board is Miriam Okafor.", "Miriam Okafor", "Miriam Okafor"),
    ),
    (
        "S02",
        ["D01"],
        [[41]],
        "How many buses did Harbourline operate at year end?",
        "1,250",
        "Int",
        "extraction",
        "easy",
        ["table"],
        ("Harbourline operated 1,250 buses.", "1250", "1 250"),
    ),
    (
        "S03",
        ["D01"],
        [[44]],
        "What was the fare revenue in millions of euros?",
        "63.1",
        "Float",
        "extraction",
        "medium",
        ["table"],
        ("About 63 million euros", "63.1", "63,1"),
    ),
    (
        "S04",
        ["D01"],
        [[12, 13]],
        "What share of trips were on time?",
        "92.4%",
        "Percentage",
        "extraction",
        "medium",
        ["chart"],
        ("92.4%", "92.4%", "0.924"),
    ),
    (
        "S05",
        ["D01"],
        [[7]],
        "Did Harbourline open a new depot in 2023?",
        "Yes",
        "Bool",
        "extraction",
        "easy",
        ["text"],
        ("Yes, the Eastgate depot opened in May.", "Yes", "Correct"),
    ),
    (
        "S06",
        ["D01"],
        [[]],
        "What is the CEO's favourite bus route?",
        NA,
        "None",
        "extraction",
        "hard",
        ["text"],
        (
            "I can't be determined from the report.",
            "Not answerable",
            "The report does not mention it.",
        ),
    ),
    (
        "S07",
        ["D02"],
        [[9]],
        "Which arm had the lowest adverse event rate?",
        "C",
        "single_choice",
        "comparison",
        "medium",
        ["table"],
        ("Because of the lower dose, arm B", "(C)", "Option C"),
    ),
    (
        "S08",
        ["D02"],
        [[15]],
        "How many participants were enrolled?",
        "312",
        "Int",
        "extraction",
        "easy",
        ["text"],
        ("312 participants", "312", "Three hundred and twelve"),
    ),
    (
        "S09",
        ["D02"],
        [[22]],
        "What was the mean reduction in systolic pressure (mmHg)?",
        "-8.4",
        "Float",
        "arithmetic",
        "hard",
        ["table", "chart"],
        ("−8.4 mmHg", "-8.4", "a reduction of 8.4"),
    ),
    (
        "S10",
        ["D02"],
        [[30]],
        "Was the primary endpoint met?",
        "No",
        "Bool",
        "extraction",
        "medium",
        ["text"],
        ("It is not true that the endpoint was met.", "No", "Incorrect"),
    ),
    (
        "S11",
        ["D02"],
        [[]],
        "What is the trial sponsor's share price?",
        NA,
        "None",
        "extraction",
        "medium",
        ["text"],
        ("Not enough information in the document.", None, "unanswerable"),
    ),
    (
        "S12",
        ["D02"],
        [[18]],
        "What proportion of patients completed the trial?",
        "87.5%",
        "Percentage",
        "arithmetic",
        "medium",
        ["table"],
        ("87.5 percent", "87.5%", "0.875"),
    ),
    (
        "S13",
        ["D03"],
        [[5]],
        "What is the total 2024 budget in millions?",
        "2,480",
        "Int",
        "extraction",
        "easy",
        ["table"],
        ("2,480 million", "2480", "2.480"),
    ),
    (
        "S14",
        ["D03"],
        [[33]],
        "Which department received the largest increase?",
        "Public Works",
        "Str",
        "comparison",
        "medium",
        ["table"],
        ("public works", "Public Works", "Parks and Recreation"),
    ),
    (
        "S15",
        ["D03"],
        [[60, 61]],
        "How much is allocated to libraries per resident (euros)?",
        "14.75",
        "Float",
        "arithmetic",
        "hard",
        ["table", "text"],
        ("14.75 euros", "14.75", "about 15"),
    ),
    (
        "S16",
        ["D03"],
        [[2]],
        "Which ward has the most residents?",
        "Ward 7",
        "Str",
        "extraction",
        "easy",
        ["layout"],
        ("Ward 7", "Ward 7", "Ward 17"),
    ),
    (
        "S17",
        ["D03"],
        [[]],
        "How many council members voted against the budget?",
        NA,
        "None",
        "counting",
        "hard",
        ["text"],
        ("3", "Cannot be determined", "The document doesn't say."),
    ),
    (
        "S18",
        ["D04"],
        [[101]],
        "What is the maximum cabin pressure differential (psi)?",
        "8.6",
        "Float",
        "extraction",
        "medium",
        ["table"],
        ("8.6 psi", "8.6", "8,6 psi"),
    ),
    (
        "S19",
        ["D04"],
        [[150]],
        "Which torque setting applies to bolt group B?",
        "B",
        "single_choice",
        "extraction",
        "hard",
        ["table"],
        ("The answer is B", "B", "a B-grade setting"),
    ),
    (
        "S20",
        ["D04"],
        [[88]],
        "How many inspection steps are in the pre-flight checklist?",
        "27",
        "Int",
        "counting",
        "medium",
        ["layout"],
        ("There are 27 steps", "27", "27"),
    ),
    (
        "S21",
        ["D04"],
        [[12]],
        "Is the KX-4 certified for icing conditions?",
        "Yes",
        "Bool",
        "extraction",
        "easy",
        ["text"],
        ("No, not certified.", "Yes", "yes"),
    ),
    (
        "S22",
        ["D04"],
        [[190]],
        "What is the fuel density used in calculations (kg/m3)?",
        "8.1e2",
        "Float",
        "extraction",
        "hard",
        ["table"],
        ("810 kg/m3", "8.1×10^2", "810"),
    ),
    (
        "S23",
        ["D05"],
        [[4]],
        "Which country hosts the cooperative's largest farm?",
        "Colombia",
        "Str",
        "extraction",
        "easy",
        ["image"],
        ("The largest farm is in Colombia.", "Colombia", "Columbia"),
    ),
    (
        "S24",
        ["D05"],
        [[19]],
        "By what fraction did water use fall?",
        "50%",
        "Percentage",
        "arithmetic",
        "medium",
        ["chart"],
        ("Water use fell by half (50%).", "50%", "1/2"),
    ),
    (
        "S25",
        ["D05"],
        [[22]],
        "How many tonnes of coffee were certified organic?",
        "4,300",
        "Int",
        "extraction",
        "medium",
        ["table"],
        ("4300 tonnes", "4,300", "4.3 thousand"),
    ),
    (
        "S26",
        ["D05"],
        [[]],
        "What will the 2030 harvest be?",
        NA,
        "None",
        "temporal",
        "hard",
        ["chart"],
        (OVF, "Not answerable", "Insufficient evidence to say."),
    ),
    (
        "S27",
        ["D06"],
        [[8]],
        "What is the minimum IELTS score for admission?",
        "6.5",
        "Float",
        "extraction",
        "easy",
        ["table"],
        ("6.5", "6.5", "6,5"),
    ),
    (
        "S28",
        ["D06"],
        [[20]],
        "Which faculty offers the Marine Robotics programme?",
        "Faculty of Engineering",
        "Str",
        "extraction",
        "medium",
        ["text"],
        ("Engineering", "Faculty of Engineering", "The Faculty of Engineering"),
    ),
    (
        "S29",
        ["D06"],
        [[31]],
        "Which option describes the appeal deadline?",
        "D",
        "single_choice",
        "temporal",
        "medium",
        ["text"],
        ("I think it is a D", "D", "(D)"),
    ),
    (
        "S30",
        ["D06"],
        [[40]],
        "List the three campuses.",
        "Ashford, Bellmere, Corran",
        "List",
        "extraction",
        "medium",
        ["text", "layout"],
        ("Ashford, Bellmere and Corran", "Ashford, Bellmere, Corran", "Ashford; Corran"),
    ),
    (
        "S31",
        ["D07"],
        [[6]],
        "What was Q3 revenue in billions?",
        "1.2",
        "Float",
        "extraction",
        "easy",
        ["chart"],
        (None, "1.2", "1.2 billion"),
    ),
    (
        "S32",
        ["D07"],
        [[9]],
        "What was the EBITDA margin?",
        "18.5%",
        "Percentage",
        "arithmetic",
        "medium",
        ["chart", "table"],
        ("18.5%", "18.5%", "0.185"),
    ),
    (
        "S33",
        ["D07"],
        [[14]],
        "How many wind farms were commissioned in Q3?",
        "3",
        "Int",
        "counting",
        "easy",
        ["image"],
        ("In 2024 they commissioned 3 farms", "3", "three"),
    ),
    (
        "S34",
        ["D08"],
        [[11]],
        "How many safety incidents were recorded?",
        "0",
        "Int",
        "extraction",
        "medium",
        ["table"],
        ("Zero incidents", "0", "0"),
    ),
    (
        "S35",
        ["D08"],
        [[25]],
        "Who signed the audit opinion?",
        "Dr. Ines Calloway",
        "Str",
        "extraction",
        "easy",
        ["layout"],
        ("Ines Calloway", "Dr. Ines Calloway", ""),
    ),
    (
        "S36",
        ["D08"],
        [[40]],
        "Was any depot found non-compliant?",
        "No",
        "Bool",
        "comparison",
        "hard",
        ["text", "table"],
        ("I don't know", "No", "No"),
    ),
]
CROSS = [
    (
        "X01",
        ["D01", "D07"],
        [[44], [6]],
        "Which company reported higher revenue?",
        "Brightwater Energy",
        "Str",
        "comparison",
        "medium",
        ["table", "chart"],
        ("Brightwater Energy reported more.", "Brightwater Energy", "Brightwater"),
    ),
    (
        "X02",
        ["D01", "D03"],
        [[41], [5]],
        "How many more buses would the council fund than Harbourline runs?",
        "150",
        "Int",
        "multi_hop",
        "hard",
        ["table"],
        ("150 more buses", "150", "1,400"),
    ),
    (
        "X03",
        ["D02", "D06"],
        [[], []],
        "Did the trial recruit at Orris University?",
        NA,
        "None",
        "multi_hop",
        "hard",
        ["text"],
        (OVF, "Not answerable", "No"),
    ),
    (
        "X04",
        ["D05", "D07"],
        [[19], [9]],
        "What is the difference between the two percentages (points)?",
        "31.5",
        "Float",
        "arithmetic",
        "hard",
        ["chart"],
        ("31.5 points", "31.5", "31,5"),
    ),
    (
        "X05",
        ["D03", "D08"],
        [[33], [11]],
        "Which of the two documents is older?",
        "A",
        "single_choice",
        "temporal",
        "easy",
        ["text"],
        ("A", "(A)", "Option B"),
    ),
    (
        "X06",
        ["D04", "D08"],
        [[12], [40]],
        "Are both organisations certified to ISO 9001?",
        "Yes",
        "Bool",
        "multi_hop",
        "medium",
        ["text"],
        ("Yes", "Yes", "Not true"),
    ),
    (
        "X07",
        ["D01", "D05"],
        [[3], [4]],
        "Which two people chair the boards?",
        "Miriam Okafor and Tomas Reyes",
        "Str",
        "multi_hop",
        "hard",
        ["text", "image"],
        ("Miriam Okafor and Tomas Reyes", "Miriam Okafor and Tomas Reyes", "Miriam Okafor"),
    ),
    (
        "X08",
        ["D02", "D07"],
        [[15], [14]],
        "What is the sum of participants and wind farms?",
        "315",
        "Int",
        "arithmetic",
        "medium",
        ["text", "image"],
        ("315", "315", "3.15×10^2"),
    ),
    (
        "X09",
        ["D06", "D03"],
        [[8], [60]],
        "What share of the library budget goes to the university?",
        "12%",
        "Percentage",
        "multi_hop",
        "hard",
        ["table"],
        ("12%", "12 %", "0.12"),
    ),
    (
        "X10",
        ["D04", "D07"],
        [[150], [6]],
        "Which document has more pages?",
        "Kestrel Aerospace KX-4 Technical Manual",
        "Str",
        "comparison",
        "easy",
        ["layout"],
        (
            "The KX-4 manual",
            "Kestrel Aerospace KX-4 Technical Manual",
            "Kestrel Aerospace KX-4 Technical Manual",
        ),
    ),
    (
        "X11",
        ["D01", "D08"],
        [[], []],
        "What is the combined carbon tax paid?",
        NA,
        "None",
        "arithmetic",
        "hard",
        ["table"],
        ("Not stated in the document", "Not answerable", "Unanswerable"),
    ),
    (
        "X12",
        ["D03", "D05"],
        [[2], [22]],
        "Which is larger: Ward 7's population or the organic tonnage?",
        "Ward 7's population",
        "Str",
        "comparison",
        "medium",
        ["layout", "table"],
        ("Ward 7's population", "Ward 7's population", "the organic tonnage"),
    ),
]
SYSTEMS = ("atlas-7b", "borealis-70b", "cirrus-mini")


def gold_row(item, task):
    qid, docs, pages, question, value, fmt, reasoning, difficulty, evidence, _ = item
    refs = [
        {
            "document_id": d,
            "url": f"https://example.org/docs/{d}.pdf",
            "evidence_pages": p,
            "evidence_items": [{"page": x, "type": evidence[0]} for x in p],
        }
        for d, p in zip(docs, pages)
    ]
    first = DOC[docs[0]]
    row = {
        "question_id": f"{task[:1]}-{qid}",
        "task_type": task,
        "question": question,
        "answer": {"value": value, "format": fmt, "verification_rule": RULE[fmt]},
        "metadata": {
            "domain": first[2],
            "reasoning_type": reasoning,
            "difficulty": difficulty,
            "doc_type": first[3],
            "evidence_sources": evidence,
            "is_unanswerable": fmt == "None",
        },
    }
    if task == "single_doc":
        row["document"] = refs[0]
    else:
        row["documents"] = refs
    return row


def dump_jsonl(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


def main():
    single = [gold_row(i, "single_doc") for i in SINGLE]
    cross = [gold_row(i, "cross_doc") for i in CROSS]
    dump_jsonl(OUT / "qa_single_doc.jsonl", single)
    dump_jsonl(OUT / "qa_cross_doc.jsonl", cross)
    dump_jsonl(
        OUT / "documents.jsonl",
        [
            {
                "document_id": d,
                "title": t,
                "domain": dom,
                "doc_type": dt,
                "page_count": n,
                "url": f"https://example.org/docs/{d}.pdf",
            }
            for d, t, dom, dt, n in DOCS
        ],
    )
    manifest = {
        "name": "assay-xlsample",
        "description": "Fictional long-document QA sample bundled with assay",
        "version": "1.0",
        "document_count": len(DOCS),
        "question_count": len(single) + len(cross),
        "files": {
            "documents": "documents.jsonl",
            "questions": ["qa_single_doc.jsonl", "qa_cross_doc.jsonl"],
        },
        "systems": list(SYSTEMS),
    }
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    items = [(gold_row(i, "single_doc"), i) for i in SINGLE] + [
        (gold_row(i, "cross_doc"), i) for i in CROSS
    ]
    for k, system in enumerate(SYSTEMS):
        rows = []
        for gold, item in items:
            pred = item[-1][k]
            if pred is None:
                continue
            if pred == OVF:
                rows.append(
                    {
                        "question_id": gold["question_id"],
                        "prediction": None,
                        "status": "context_overflow",
                    }
                )
            else:
                rows.append(
                    {"question_id": gold["question_id"], "prediction": pred, "status": "success"}
                )
        if system == "atlas-7b":
            rows.append({"question_id": "S-S99", "prediction": "stray answer", "status": "success"})
        dump_jsonl(OUT / "predictions" / f"{system}.jsonl", rows)
    smoke = [
        gold_row(i, "single_doc") for i in (SINGLE[0], SINGLE[1], SINGLE[3], SINGLE[5], SINGLE[6])
    ]
    dump_jsonl(SMOKE / "qa_single_doc.jsonl", smoke)
    dump_jsonl(
        SMOKE / "predictions.jsonl",
        [{"question_id": r["question_id"], "prediction": r["answer"]["value"]} for r in smoke],
    )


if __name__ == "__main__":
    main()
