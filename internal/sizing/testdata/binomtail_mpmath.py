# Reference values for TestBinomialTailMpmath: binomial tails at n to 10^12 and sd to 10^6,
# summed term by term in 45-digit arithmetic (mpmath 1.3.0), from exact log-gamma terms.
# Run: python3 internal/sizing/testdata/binomtail_mpmath.py (35 s)
from mpmath import mp, mpf, loggamma, log, exp
mp.dps = 45
def pmf(n,k,p):
    p=mpf(p); return exp(loggamma(n+1)-loggamma(k+1)-loggamma(n-k+1)+k*log(p)+(n-k)*log(1-p))
def upper(n,p,k):  # k above mode
    p=mpf(p); t=pmf(n,k,p); s=t; r=p/(1-p); j=k
    while True:
        t = t*(n-j)/(j+1)*r; j+=1; s+=t
        if t < s*mpf(10)**-30: return s
def lower(n,p,k):  # P(X<=k), k below mode
    p=mpf(p); t=pmf(n,k,p); s=t; r=(1-p)/p; j=k
    while True:
        t = t*j/(n-j+1)*r; j-=1; s+=t
        if t < s*mpf(10)**-30: return s
cases = [(2**32, 0.5, 2**31+100000, 'u'), (2**32, 0.25, 2**30+150000, 'u'), (2**32, 0.5, 2**31-40000, 'l'),
         (10**12, 1e-3, 10**9+150000, 'u'), (2**32, 1e-6, 4400, 'u'), (2**32, 0.9, 3865470566-60000, 'l')]
for n,p,k,side in cases:
    v = upper(n,p,k) if side=='u' else 1-lower(n,p,k-1)
    print("{%d, %d, %r, %s}," % (n, k, p, mp.nstr(v, 17)))
