#!/usr/bin/env python3
# fnself.py CGOUT [CGOUT2]: per-function self cost (and diff)
import sys, re, collections, subprocess
def load(cg):
    names={}; cost=collections.Counter(); fn=None; skip=False
    for line in open(cg):
        line=line.rstrip('\n')
        m=re.match(r'^fn=\((\d+)\)(?: (.*))?$', line)
        if m:
            if m.group(2): names[m.group(1)]=m.group(2)
            fn=names[m.group(1)]; continue
        m2=re.match(r'^c?fn=\((\d+)\)(?: (.*))?$', line)
        if m2:
            if m2.group(2): names[m2.group(1)]=m2.group(2)
            continue
        if line.startswith('calls='): skip=True; continue
        if not line or not (line[0].isdigit() or line[0] in '+-*'): continue
        if skip: skip=False; continue
        toks=line.split()
        cost[fn]+=int(toks[-1])
    return cost
def dem(n):
    try: return subprocess.run(['swift','demangle','--simplified','--compact',n],capture_output=True,text=True).stdout.strip()[:150]
    except: return n
a=load(sys.argv[1])
if len(sys.argv)>2:
    b=load(sys.argv[2]); keys=set(a)|set(b)
    for k in sorted(keys,key=lambda k:-abs(b[k]-a[k]))[:30]:
        if b[k]!=a[k]: print(f"{a[k]:>10} {b[k]:>10} {b[k]-a[k]:>+8} {dem(k)}")
else:
    for k,v in a.most_common(30): print(f"{v:>10} {dem(k)}")
