"""Fits the spread the way `kforecast train` does (the same grid; criterion: log score +
W x ECE of the most likely bin) on half the families of a `train --cv-only --dump` file,
drawn at random, and scores the other half. Usage: python3 spread_out_of_family.py DUMP [DRAWS]
Prints, per draw and variant, the spread chosen and ECE / log score on both halves, then the
means (W = 5 is train's criterion; "log" is the log score alone)."""
import json, math, sys, itertools
import numpy as np
from scipy.special import ndtr
rows=[json.loads(l) for l in open(sys.argv[1])]
mu=np.array([math.log2(r['forecast']['speedup']) for r in rows])
EDGES=np.array([-2,-1,-0.5,0,0.5,1,2.0])
def binof(s):
    l=math.log2(s)
    for i,e in enumerate(EDGES):
        if l<=e+1e-12: return i
    return 7
truth=np.array([binof(r['speedup']) for r in rows])
fams=np.array([r['family'] for r in rows]); U=sorted(set(fams))
def bins_normal(m, s):
    c=ndtr((EDGES[None,:]-m[:,None])/s[:,None])
    c=np.concatenate([np.zeros((len(m),1)),c,np.ones((len(m),1))],1)
    return np.diff(c,axis=1)
def ece(conf,hit):
    k=np.minimum((conf*10).astype(int),9); e=0
    for b in range(10):
        m=k==b
        if m.any(): e+=abs(hit[m].mean()-conf[m].mean())*m.sum()
    return e/len(conf)
BASES=[0.05*b for b in range(2,21)]; RELS=[0.1*r for r in range(0,21)]; CAPS=[0.5,0.75,1,1.5,2,3,64]
OUTS=[0,0.05,0.1,0.15,0.2,0.3]; OSIG=[1.5,3.0]
def wide(osig):
    return bins_normal(np.zeros(1),np.array([osig]))[0]
WIDE={o:wide(o) for o in OSIG}
def evaluate(idx, sp):
    b,r,cap,w,os_=sp
    s=np.maximum(np.sqrt(b*b+(r*np.clip(mu[idx],-cap,cap))**2),0.02)
    p=(1-w)*bins_normal(mu[idx],s)+w*WIDE[os_]
    t=truth[idx]
    log=-np.log(np.maximum(p[np.arange(len(idx)),t],1e-12)).mean()
    top=p.argmax(1); conf=p[np.arange(len(idx)),top]; hit=(top==t).astype(float)
    return log, ece(conf,hit)
def fit(idx, crit, grid):
    best=None
    m=mu[idx]; t=truth[idx]; n=len(idx); ar=np.arange(n)
    for b,r,cap in grid['core']:
        s=np.maximum(np.sqrt(b*b+(r*np.clip(m,-cap,cap))**2),0.02)
        core=bins_normal(m,s)
        for w in grid['outs']:
            for os_ in (grid['osig'] if w>0 else [1.5]):
                p=(1-w)*core+w*WIDE[os_]
                log=-np.log(np.maximum(p[ar,t],1e-12)).mean()
                if crit=='log': c=log
                else:
                    top=p.argmax(1); conf=p[ar,top]; hit=(top==t).astype(float)
                    c=log+crit*ece(conf,hit)
                if best is None or c<best[0]: best=(c,(b,r,cap,w,os_))
    return best[1]
full={'core':list(itertools.product(BASES,RELS,CAPS)),'outs':OUTS,'osig':OSIG}
rng=np.random.default_rng(1)
res={}
for rep in range(int(sys.argv[2]) if len(sys.argv)>2 else 6):
    perm=rng.permutation(len(U)); A=set(U[i] for i in perm[:len(U)//2])
    ia=np.array([i for i in range(len(rows)) if fams[i] in A]); ib=np.array([i for i in range(len(rows)) if fams[i] not in A])
    for name,crit,grid in [('W=5 (train)',5,full),('W=20',20,full),('log','log',full)]:
        sp=fit(ia,crit,grid); la,ea=evaluate(ia,sp); lb,eb=evaluate(ib,sp)
        res.setdefault(name,[]).append((ea,eb,la,lb))
        print(rep,name,[round(x,3) for x in sp],'in',round(ea,3),round(la,3),'out',round(eb,3),round(lb,3),flush=True)
for k,v in res.items():
    v=np.array(v); print(k,'mean in-ECE %.3f out-ECE %.3f in-log %.3f out-log %.3f'%tuple(v.mean(0)))
