"""Half-split test of spread structures on a `train --cv-only --dump` file (train split only):
fits each variant (normal, Laplace, Student-t cores; outlier centred at 0, mu or mu/2; the members'
disagreement) on half the families by log score + 5 x ECE and scores the other half.
Usage: python3 spread_structures.py DUMP DRAWS [VARIANTS]"""
import json, math, sys, itertools
import numpy as np
from scipy.special import ndtr
from scipy.stats import t as student
rows=[json.loads(l) for l in open(sys.argv[1])]
mu=np.array([math.log2(r['forecast']['speedup']) for r in rows])
lang=np.array([r['family'].startswith('triton') for r in rows])
D=np.array([float(r.get('disagreement',0.0)) for r in rows])
EDGES=np.array([-2,-1,-0.5,0,0.5,1,2.0])
y=np.array([math.log2(r['speedup']) for r in rows])
truth=np.searchsorted(EDGES, y-1e-12)  # bin index
fams=np.array([r['family'] for r in rows]); U=sorted(set(fams))
def cdf_bins(c):
    c=np.concatenate([np.zeros((c.shape[0],1)),c,np.ones((c.shape[0],1))],1); return np.diff(c,axis=1)
def normal(m,s): return cdf_bins(ndtr((EDGES[None,:]-m[:,None])/s[:,None]))
def tdist(m,s,df): return cdf_bins(student.cdf((EDGES[None,:]-m[:,None])/s[:,None],df))
def laplace(m,s):
    z=(EDGES[None,:]-m[:,None])/s[:,None]; c=np.where(z<0,0.5*np.exp(z),1-0.5*np.exp(-z)); return cdf_bins(c)
def ece(conf,hit):
    k=np.minimum((conf*10).astype(int),9); e=0
    for b in range(10):
        m=k==b
        if m.any(): e+=abs(hit[m].mean()-conf[m].mean())*m.sum()
    return e/len(conf)
def score(p,t):
    ar=np.arange(len(t)); log=-np.log(np.maximum(p[ar,t],1e-12)).mean()
    top=p.argmax(1); conf=p[ar,top]; hit=(top==t).astype(float); return log, ece(conf,hit)
BASES=[0.1,0.15,0.2,0.25,0.3,0.4]; RELS=[0.5,1,1.5,2,2.5,3]; CAPS=[0.5,1,2]
OUTS=[0,0.05,0.1,0.2]; OSIG=[1.5,3.0]
def sig(idx,b,r,cap,k=0): return np.maximum(np.sqrt(b*b+(r*np.clip(mu[idx],-cap,cap))**2+(k*D[idx])**2),0.02)
def variants():
    V={}
    def cur(idx,b,r,cap,w,os_,center='zero',core='n',k=0):
        m=mu[idx]; s=sig(idx,b,r,cap,k)
        if core=='n': p=normal(m,s)
        elif core=='t3': p=tdist(m,s,3)
        elif core=='t5': p=tdist(m,s,5)
        elif core=='lap': p=laplace(m,s/math.sqrt(2))
        if w>0:
            c={'zero':0*m,'mu':m,'half':m/2}[center]
            p=(1-w)*p+w*normal(c,np.full(len(m),os_))
        return p
    base=list(itertools.product(BASES,RELS,CAPS,OUTS,OSIG))
    V['current']=(base,lambda idx,a:cur(idx,*a))
    V['out@mu']=(base,lambda idx,a:cur(idx,*a,center='mu'))
    V['out@half']=(base,lambda idx,a:cur(idx,*a,center='half'))
    V['t3']=(base,lambda idx,a:cur(idx,*a,core='t3'))
    V['t5']=(base,lambda idx,a:cur(idx,*a,core='t5'))
    V['laplace']=(base,lambda idx,a:cur(idx,*a,core='lap'))
    if D.any():
        g=list(itertools.product(BASES,RELS,CAPS,OUTS,OSIG,[0,2,4,8]))
        V['dis']=(g,lambda idx,a:cur(idx,*a[:5],k=a[5]))
    return V
V=variants()
sel=sys.argv[3].split(',') if len(sys.argv)>3 else list(V)
rng=np.random.default_rng(1); res={}
for rep in range(int(sys.argv[2])):
    perm=rng.permutation(len(U)); A=set(U[i] for i in perm[:len(U)//2])
    ia=np.array([i for i in range(len(rows)) if fams[i] in A]); ib=np.array([i for i in range(len(rows)) if fams[i] not in A])
    for name in sel:
        grid,f=V[name]; best=None
        for a in grid:
            if a[3]==0 and a[4]!=OSIG[0]: continue
            l,e=score(f(ia,a),truth[ia]); c=l+5*e
            if best is None or c<best[0]: best=(c,a,l,e)
        lb,eb=score(f(ib,best[1]),truth[ib])
        res.setdefault(name,[]).append((best[3],eb,best[2],lb))
        print(rep,name,best[1],'in %.3f %.3f out %.3f %.3f'%(best[3],best[2],eb,lb),flush=True)
for k,v in res.items():
    v=np.array(v); print('%-10s in-ECE %.3f out-ECE %.3f (sd %.3f) in-log %.3f out-log %.3f'%(k,v[:,0].mean(),v[:,1].mean(),v[:,1].std(),v[:,2].mean(),v[:,3].mean()))
