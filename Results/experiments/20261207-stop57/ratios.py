#!/usr/bin/env python3
# ratios.py DIR: per kairo case, new/old wall time from DIR/{old,new}-round{1,2,3}.json
# (interleaved rounds): the median over rounds of the fastest-sample and median-sample
# ratios, with the rounds' range.
import json, statistics, sys

def load(path):
    out = {}
    for x in json.load(open(path))['results']:
        m = x['metrics']['wallTime']
        out[x['caseID']] = (m['min'], m['median'])
    return out

d = sys.argv[1]
old = [load(f'{d}/old-round{r}.json') for r in (1, 2, 3)]
new = [load(f'{d}/new-round{r}.json') for r in (1, 2, 3)]
for c in old[0]:
    for i, name in ((0, 'fastest'), (1, 'median')):
        rs = [new[r][c][i] / old[r][c][i] for r in range(3)]
        print(f'{c:18s} {name:7s} {statistics.median(rs):.3f} ({min(rs):.3f}-{max(rs):.3f})')
