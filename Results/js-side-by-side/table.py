#!/usr/bin/env python3
"""Prints the side-by-side tables (markdown) from one sitting's result files.

Usage: table.py DIR   (DIR holds cog-{sbench,kairo,firstread}-roundN.json and
alien-{sbench,kairo,firstread}-roundN.json for the same N)

A round's Cog figure: sbench, the fastest of a sub-case's first 10 samples (ms); Kairo, the
fastest of the first 10 samples x 500 iter() calls (ms); first reads, the median sample / 10^6
(ns). Alien's: what its harness printed (sbench and Kairo: the fastest of the benchmark's own
10 samples, ms; first reads: the median of the round's samples, ns). A cell is the median of
the rounds' figures; the range is the rounds' own ratios' minimum and maximum.
"""
import json, os, re, statistics, sys

d = sys.argv[1]
rounds = sorted({int(m.group(1)) for f in os.listdir(d) for m in [re.match(r'cog-sbench-round(\d+)\.json$', f)] if m})

def load(name):
    with open(os.path.join(d, name)) as f:
        return json.load(f)

def cog_fastest10(doc, scale):
    out = {}
    for r in doc['results']:
        if r['system'] != 'cog':
            continue
        w = r['metrics']['wallTime']
        name = r['caseID'].split('/')[-1]
        out[name] = min(w['sampleValues'][:10]) * scale
    return out

rows = {'sbench': {}, 'kairo': {}}
order = {'sbench': [], 'kairo': []}
for n in rounds:
    for suite, scale in (('sbench', 1e-6), ('kairo', 500 * 1e-6)):
        cog = cog_fastest10(load(f'cog-{suite}-round{n}.json'), scale)
        alien = load(f'alien-{suite}-round{n}.json')['cases']
        for case, a in alien.items():
            if case not in cog:
                sys.exit(f'table: {case} is in alien-{suite}-round{n}.json but not in Cog\'s')
            if case not in order[suite]:
                order[suite].append(case)
            rows[suite].setdefault(case, []).append((cog[case], a))

def fmt_table(suite, title):
    print(f'| {title} | Cog, ms | alien, ms | Cog / alien | rounds |')
    print('|---|---:|---:|---:|---:|')
    for case in order[suite]:
        rs = rows[suite][case]
        c = statistics.median(x for x, _ in rs)
        a = statistics.median(y for _, y in rs)
        ratios = [x / y for x, y in rs]
        print(f'| {case} | {c:.2f} | {a:.2f} | {c / a:.2f} | {min(ratios):.2f}–{max(ratios):.2f} |')
    print()

fmt_table('sbench', 'case')
fmt_table('kairo', 'Kairo case')

parts = {'signal': [], 'computed': []}
for n in rounds:
    cog = {r['caseID']: r['metrics']['wallTime']['median'] / 1e6
           for r in load(f'cog-firstread-round{n}.json')['results'] if r['system'] == 'cog'}
    alien = load(f'alien-firstread-round{n}.json')
    parts['signal'].append((cog['cog/first-read'], statistics.median(alien['signalNs'])))
    parts['computed'].append((cog['cog/first-read-computed'], statistics.median(alien['computedNs'])))
for kind in ('signal', 'computed'):
    cells = ', '.join(f'{c:.1f} / {a:.1f} ({c / a:.2f})' for c, a in parts[kind])
    print(f'First read of a {kind} (ns a read, Cog / alien, a round\'s median sample; ratio per round): {cells}')
