/**
 * `verify.py` of the forensic archive: every check of VERIFY.md over the whole archive, with the
 * Python 3 standard library only (and openssl for the time-stamps, when it is on the PATH). It
 * shares no code with the service: it recomputes from the files what the service claims, the way
 * a third party would.
 */
export const VERIFY_PY = String.raw`#!/usr/bin/env python3
"""Checks a forensic export of the fiscal ledger. Run it in the unzipped folder: python3 verify.py

Standard library only; openssl (if on the PATH) verifies the RFC 3161 tokens. Exit status 0 when
every check passes, 1 otherwise. Each failure is printed with the file, line and what differs.
"""
import hashlib, json, os, re, shutil, subprocess, sys
from decimal import ROUND_HALF_UP, Decimal

GENESIS = "0" * 64
COUNTS = ["invoices_count", "credit_notes_count", "payments_count"]
MONEY = ["invoices_ht", "invoices_tax", "invoices_ttc", "credit_notes_ht", "credit_notes_tax",
         "credit_notes_ttc", "net_ht", "net_tax", "net_ttc", "payments_amount"]
failures = []

def fail(where, what):
    failures.append(where + ": " + what)
    print("FAIL " + where + ": " + what)

def sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()

def read_jsonl(name):
    with open(name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]

def has_float(value):
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(has_float(v) for v in value)
    return False

def rfc8785(value):
    # RFC 8785 for the values the ledger stores (strings, integers, booleans, null, objects):
    # keys sorted, no whitespace, only the mandatory escapes.
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

def money(value):
    return str(Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))

def number(value):
    # A value that is not a decimal number counts as nothing, as in the service's SQL sums.
    if isinstance(value, bool) or value is None:
        return None
    text = str(value)
    return Decimal(text) if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", text) else None

def zero_amounts():
    out = {k: 0 for k in COUNTS}
    out.update({k: "0.00" for k in MONEY})
    return out

def add_amounts(a, b):
    out = {k: a[k] + b[k] for k in COUNTS}
    out.update({k: money(Decimal(a[k]) + Decimal(b[k])) for k in MONEY})
    return out

def add_totals(a, b):
    others = {}
    for code in sorted(set(a["other_currencies"]) | set(b["other_currencies"])):
        others[code] = add_amounts(a["other_currencies"].get(code, zero_amounts()),
                                   b["other_currencies"].get(code, zero_amounts()))
    top = add_amounts({k: a[k] for k in COUNTS + MONEY}, {k: b[k] for k in COUNTS + MONEY})
    return dict(currency="EUR", other_currencies=others, **top)

def period_totals(entries):
    # Sales are outgoing invoices; credit notes and payments count positive; net = sales - credit notes.
    groups = {}
    for e in entries:
        if e["entry_type"] == "closing":
            continue
        d = e["data"]
        currency = d.get("currency") if d.get("currency") is not None else "EUR"
        g = groups.setdefault(currency, {k: 0 for k in COUNTS} | {k: Decimal(0) for k in MONEY})
        def add(key, value, absolute=False):
            n = number(value)
            if n is not None:
                g[key] += abs(n) if absolute else n
        if e["entry_type"] == "invoice_created" and (d.get("direction") or "outgoing") != "incoming":
            g["invoices_count"] += 1
            for part in ("ht", "tax", "ttc"):
                add("invoices_" + part, d.get("total_" + part))
        elif e["entry_type"] == "credit_note_issued":
            g["credit_notes_count"] += 1
            for part in ("ht", "tax", "ttc"):
                add("credit_notes_" + part, d.get("total_" + part), True)
        elif e["entry_type"] == "payment":
            g["payments_count"] += 1
            add("payments_amount", d.get("amount") if d.get("amount") is not None else d.get("total_ttc"), True)
    totals = dict(currency="EUR", other_currencies={}, **zero_amounts())
    for code, g in groups.items():
        amounts = {k: g[k] for k in COUNTS}
        amounts.update({k: money(g[k]) for k in MONEY if not k.startswith("net_")})
        for part in ("ht", "tax", "ttc"):
            amounts["net_" + part] = money(g["invoices_" + part] - g["credit_notes_" + part])
        if code == "EUR":
            totals.update(amounts)
        else:
            totals["other_currencies"][code] = amounts
    return totals

def check_manifest():
    manifest = json.load(open("manifest.json", encoding="utf-8"))
    listed = set()
    for f in manifest["files"]:
        listed.add(f["path"])
        if not os.path.isfile(f["path"]):
            fail("manifest.json", f["path"] + " is missing")
            continue
        data = open(f["path"], "rb").read()
        if hashlib.sha256(data).hexdigest() != f["sha256"] or len(data) != f["bytes"]:
            fail("manifest.json", f["path"] + " does not match its SHA-256 or size")
    for root, _, names in os.walk("."):
        for name in names:
            path = os.path.relpath(os.path.join(root, name), ".").replace(os.sep, "/")
            if path != "manifest.json" and path not in listed:
                fail("manifest.json", path + " is not listed")
    print("manifest: %d files checked" % len(listed))
    return manifest

def check_entries():
    chains = {}
    for n, e in enumerate(read_jsonl("entries.jsonl"), 1):
        where = "entries.jsonl line %d (chain %s, sequence %s)" % (n, e["sub_tenant_id"] or "own", e["sequence_number"])
        chain = chains.setdefault(e["sub_tenant_id"], [])
        expected = len(chain) + 1
        if e["sequence_number"] != expected:
            fail(where, "sequence number %s, expected %d" % (e["sequence_number"], expected))
        if sha256(e["canonical_data"]) != e["data_hash"]:
            fail(where, "data_hash is not the SHA-256 of canonical_data")
        data = json.loads(e["canonical_data"])
        if not has_float(data) and rfc8785(data) != e["canonical_data"]:
            fail(where, "canonical_data is not in RFC 8785 form")
        previous = chain[-1]["chain_hash"] if chain else GENESIS
        if e["previous_hash"] != previous:
            fail(where, "previous_hash is not the chain_hash of the entry before")
        if sha256(e["previous_hash"] + e["data_hash"]) != e["chain_hash"]:
            fail(where, "chain_hash is not SHA-256(previous_hash + data_hash)")
        e["data"] = data
        chain.append(e)
    print("entries: %d in %d chain(s) checked" % (sum(len(c) for c in chains.values()), len(chains)))
    return chains

def check_closings(chains):
    closings = read_jsonl("closings.jsonl")
    previous = {}
    for n, c in enumerate(closings, 1):
        where = "closings.jsonl line %d (%s %s)" % (n, c["type"], c["period_start"])
        chain = chains.get(c["sub_tenant_id"], [])
        if sha256(c["canonical_data"]) != c["closing_hash"]:
            fail(where, "closing_hash is not the SHA-256 of canonical_data")
        sealed = json.loads(c["canonical_data"])
        for key, value in sealed.items():
            if key in c and c[key] != value:
                fail(where, key + " differs from the sealed canonical_data")
        before = previous.get((c["sub_tenant_id"], c["type"]))
        if c["previous_closing_hash"] != (before["closing_hash"] if before else GENESIS):
            fail(where, "previous_closing_hash is not the closing_hash of the closing before")
        start = before["last_sequence_number"] if before else 0
        if c["entries_count"] != c["last_sequence_number"] - start or (
                c["first_sequence_number"] != (start + 1 if c["entries_count"] else None)):
            fail(where, "the range does not start where the closing before ended")
        last = c["last_sequence_number"]
        if last < 1 or last > len(chain) or chain[last - 1]["chain_hash"] != c["last_chain_hash"]:
            fail(where, "last_chain_hash is not the chain_hash of entry %d" % last)
        covered = chain[start:last] if c["entries_count"] else []
        totals = period_totals(covered)
        if totals != sealed["totals"]:
            fail(where, "totals differ from the sum of the entries %d..%d" % (start + 1, last))
        same_year = before and before["fiscal_year"] == c["fiscal_year"]
        if sealed["fiscal_year_totals"] != (add_totals(before["fiscal_year_totals"], totals) if same_year else totals):
            fail(where, "fiscal_year_totals are not the previous ones plus the period")
        if sealed["perpetual_totals"] != (add_totals(before["perpetual_totals"], totals) if before else totals):
            fail(where, "perpetual_totals are not the previous ones plus the period")
        if not any(e["entry_type"] == "closing" and e["data"].get("closing_id") == c["id"]
                   and e["data"].get("closing_hash") == c["closing_hash"] for e in chain):
            fail(where, "no closing entry of the chain records this closing_hash")
        previous[(c["sub_tenant_id"], c["type"])] = c
    print("closings: %d checked" % len(closings))
    return {c["id"]: c for c in closings}

def check_anchors(closings):
    anchors = read_jsonl("anchors.jsonl")
    openssl = shutil.which("openssl")
    verified = 0
    for n, a in enumerate(anchors, 1):
        where = "anchors.jsonl line %d (anchor %s)" % (n, a["id"])
        closing = closings.get(a["closing_id"])
        if not closing or closing["closing_hash"] != a["data_hash"]:
            fail(where, "data_hash is not the closing_hash of closing " + str(a["closing_id"]))
        if a["status"] != "anchored":
            continue
        if not a["token_file"] or not a["ca_certificate_file"]:
            fail(where, "an anchored anchor without its token or CA certificate")
        elif openssl:
            run = subprocess.run([openssl, "ts", "-verify", "-digest", a["data_hash"], "-in", a["token_file"],
                                  "-token_in", "-CAfile", a["ca_certificate_file"]], capture_output=True, text=True)
            if run.returncode != 0 or "Verification: OK" not in run.stdout:
                fail(where, "openssl ts -verify: " + (run.stdout + run.stderr).strip().replace("\n", " "))
            else:
                verified += 1
    print("anchors: %d listed, %d tokens verified by openssl%s" % (
        len(anchors), verified, "" if openssl else " (openssl not found: tokens not checked)"))

if __name__ == "__main__":
    if len(sys.argv) > 1:
        os.chdir(sys.argv[1])
    check_manifest()
    chains = check_entries()
    check_anchors(check_closings(chains))
    print("FAILED: %d problem(s)" % len(failures) if failures else "OK: every check passed")
    sys.exit(1 if failures else 0)
`;
