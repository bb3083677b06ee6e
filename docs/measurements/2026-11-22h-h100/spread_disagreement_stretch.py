"""Half-split test (train split only) of the disagreement term and of stretching mu by a fitted factor.
Usage: python3 spread_disagreement_stretch.py DUMP DRAWS plain,dis,stretch,dis+stretch SEED"""
import json, math, sys, itertools
import numpy as np
from scipy.special import ndtr
rows=[json.loads(l) for l in open(sys.argv[1])]
mu0=np.array([math.log2(r['forecast']['speedup']) for r in rows])
D=np.array([float(r.get('disagreement',0.0)) for r in rows])
EDGES=np.array([-2,-1,-0.5,0,0.5,1,2.0])
y=np.array([math.log2(r['speedup']) for r in rows])
truth=np.searchsorted(EDGES, y-1e-12)
fams=np.array([r['family'] for r in rows]); U=sorted(set(fams))
def normal(m,s):
    c=ndtr((EDGES[None,:]-m[:,None])/s[:,None]); c=np.concatenate([np.zeros((len(m),1)),c,np.ones((len(m),1))],1); return np.diff(c,axis=1)
def ece(conf,hit):
    k=np.minimum((conf*10).astype(int),9); e=0
    for b in range(10):
        m=k==b
        if m.any(): e+=abs(hit[m].mean()-conf[m].mean())*m.sum()
    return e/len(conf)
def score(p,t):
    ar=np.arange(len(t)); log=-np.log(np.maximum(p[ar,t],1e-12)).mean()
    top=p.argmax(1); conf=p[ar,top]; hit=(top==t).astype(float); return log, ece(conf,hit)
WIDE={o:normal(np.zeros(1),np.array([o]))[0] for o in (1.5,3.0)}
def fc(idx,a):
    b,r,cap,w,os_,k,st=a; m=st*mu0[idx]
    s=np.maximum(np.sqrt(b*b+(r*np.clip(m,-cap,cap))**2+(k*D[idx])**2),0.02)
    return (1-w)*normal(m,s)+w*WIDE[os_]
G=[a for a in itertools.product([0.15,0.2,0.25,0.3,0.4],[0.5,1,1.5,2,2.5],[0.5,1,2],[0,0.05,0.1,0.2],[1.5,3.0],[0,4,8],[1,1.15,1.3,1.45]) if not (a[3]==0 and a[4]==3.0)]
V={'dis':[a for a in G if a[6]==1],'dis+stretch':G,'stretch':[a for a in G if a[5]==0],'plain':[a for a in G if a[5]==0 and a[6]==1]}
sel=sys.argv[3].split(',')
rng=np.random.default_rng(int(sys.argv[4]) if len(sys.argv)>4 else 1)
for rep in range(int(sys.argv[2])):
    perm=rng.permutation(len(U)); A=set(U[i] for i in perm[:len(U)//2])
    ia=np.array([i for i in range(len(rows)) if fams[i] in A]); ib=np.array([i for i in range(len(rows)) if fams[i] not in A])
    cache={}
    for a in V[sel[-1]] if False else sorted(set().union(*[V[s] for s in sel])):
        l,e=score(fc(ia,a),truth[ia]); cache[a]=(l+5*e,l,e)
    for name in sel:
        best=min(V[name],key=lambda a:cache[a][0])
        lb,eb=score(fc(ib,best),truth[ib])
        print(rep,name,best,'in %.3f %.3f out %.3f %.3f'%(cache[best][2],cache[best][1],eb,lb),flush=True)
