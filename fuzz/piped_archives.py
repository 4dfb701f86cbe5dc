"""Fuzzes the sgfaudit binary on archives whose game entries are collections
large enough to be piped to the walk and cut into parts as they are unpacked
(src/input/archive/pipe.rs), a path the in-process `archive` target (pipes
off) does not take, and on compressed collection files, cut into parts when
they are cut short whatever their size (src/input/walk.rs). Each input (a zip stored
or deflated, a tar, a tar.gz, a .sgf.gz, .sgf.bz2 or .sgf.xz of real games
from corpus/real, and a .tar.zst or .sgf.zst when the zstd program is
installed, mutated: bit flips, cuts, insertions, copied spans) is
audited at -j1 and -j2 under a 4 GB address-space limit and a 20 s timeout,
named on the command line or, one time in three, on standard input (`-`,
read as its first bytes say: src/input/stdin.rs);
a crash, a hang, an input without a row or two outputs that differ are kept
in fuzz/artifacts/piped/.

    python3 fuzz/piped_archives.py SEED SECONDS   (after cargo build --release)
"""
import random, subprocess, os, sys, zipfile, tarfile, io, time, gzip, bz2, lzma, shutil

ROOT=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT=os.path.join(ROOT,'fuzz','artifacts','piped')
os.makedirs(OUT,exist_ok=True)
seed=int(sys.argv[1]); random.seed(seed)
BIN=os.path.join(ROOT,'target','release','sgfaudit')
games=[open(os.path.join(r,f),'rb').read() for r,_,fs in os.walk(os.path.join(ROOT,'corpus','real')) for f in sorted(fs) if f.lower().endswith('.sgf')]
def coll():
    return b'\n'.join(random.sample(games, random.randint(2,12)))
def entries():
    out=[]
    for i in range(random.randint(1,4)):
        out.append((random.choice(['c','d/e','f'])+str(i)+random.choice(['.sgf','.SGF','.txt']), coll() if random.random()<0.7 else random.choice(games)))
    return out
SUFFIX={'zip':'zip','tar':'tar','tgz':'tar.gz','gz':'sgf.gz','bz2':'sgf.bz2','xz':'sgf.xz'}
COMPRESS={'gz':gzip.compress,'bz2':bz2.compress,'xz':lzma.compress}
def zstd(b):
    return subprocess.run(['zstd','-q','-c','-%d'%random.choice([1,3,19])],input=bytes(b),capture_output=True,check=True).stdout
if shutil.which('zstd'):
    SUFFIX.update({'zst':'sgf.zst','tzst':'tar.zst'}); COMPRESS['zst']=zstd
def mk():
    es=entries(); kind=random.choice(list(SUFFIX))
    b=io.BytesIO()
    if kind in COMPRESS:
        return kind, bytearray(COMPRESS[kind](b'\n'.join(d for _,d in es)))
    if kind=='zip':
        with zipfile.ZipFile(b,'w',random.choice([zipfile.ZIP_STORED,zipfile.ZIP_DEFLATED])) as z:
            for n,d in es: z.writestr(n,d)
    else:
        with tarfile.open(fileobj=b,mode='w:gz' if kind=='tgz' else 'w') as t:
            for n,d in es:
                ti=tarfile.TarInfo(n); ti.size=len(d); t.addfile(ti,io.BytesIO(d))
    if kind=='tzst':
        return kind, bytearray(zstd(b.getvalue()))
    return kind, bytearray(b.getvalue())
def mutate(b):
    for _ in range(random.randint(0,4)):
        if not b: break
        r=random.random()
        if r<0.5: i=random.randrange(len(b)); b[i]^=1<<random.randrange(8)
        elif r<0.7: b=b[:random.randrange(len(b)+1)]
        elif r<0.85: i=random.randrange(len(b)+1); b[i:i]=os.urandom(random.randint(1,64))
        else: i=random.randrange(len(b)); j=min(len(b),i+random.randint(1,300)); b[i:i]=b[i:j]
    return b
n=bad=0; t0=time.time()
while time.time()-t0 < float(sys.argv[2]):
    # Small parts pipe nearly every archive entry; the default sizes leave
    # a damaged compressed file to be cut because it failed.
    env=dict(os.environ)
    part=random.choice([300,2000,None])
    if part: env['SGFAUDIT_PART_BYTES']=str(part)
    else: env.pop('SGFAUDIT_PART_BYTES',None)
    kind,b=mk(); b=mutate(b); p=os.path.join(OUT,'current%d.%s'%(seed,SUFFIX[kind]))
    open(p,'wb').write(b)
    outs=[]
    stdin=random.random()<1/3
    for j in ('-j1','-j2'):
        try:
            r=subprocess.run(['prlimit','--as=4000000000',BIN,'check','-' if stdin else p,'-q','--format','jsonl',j],input=bytes(b) if stdin else None,capture_output=True,timeout=20,env=env)
            outs.append(r.stdout)
            if r.returncode not in (0,1,2) or b'panicked' in r.stderr or b'internal error' in r.stdout or not r.stdout.strip():
                bad+=1; os.system('cp %s %s/bad%d_%d.%s'%(p,OUT,seed,bad,SUFFIX[kind])); print('BAD',j,r.returncode,r.stderr[-300:]); break
        except subprocess.TimeoutExpired:
            bad+=1; os.system('cp %s %s/hang%d_%d.%s'%(p,OUT,seed,bad,SUFFIX[kind])); print('HANG'); break
    if len(outs)==2 and outs[0]!=outs[1]:
        bad+=1; os.system('cp %s %s/nondet%d_%d.%s'%(p,OUT,seed,bad,SUFFIX[kind])); print('NONDET')
    n+=1
print('runs',n,'bad',bad)
