"""Naming a Bakugan by its signature (event-time maths, floats allowed).

A Bakugan's signature is its magnet's moment as the kernel fit reads it
(sense.fit: signed by the moment's vertical part, the pole it shows);
the mat learns each one from a lesson and refines it from the landings the
game confirms (sense.identify). Called only while a zone's field has
settled into a new state (a landing, a leave), never in the per-frame path
of an idle mat.

Identification (`posterior`) is Bayesian over the candidates the referee
allows: each learnt signature is a core Gaussian around its value with a
tail of landings read far off; the caller waits for more frames while no
candidate is clearly the one.
"""
from math import exp, log, sqrt

UNKNOWN_SPAN = 4.0     # a never-registered Bakugan: flat over +-4 x the level


def loglik(x, sx, s, rel, n=1, tail=0.0, trel=0.25):
    """(log-likelihood, z score) of a level x (standard error sx) for a
    Bakugan of learnt signature s (None: never registered, a flat likelihood
    over +-UNKNOWN_SPAN times |x|). rel: a landing's spread around the
    Bakugan's own level (tilt, position), relative; the signature's own
    error is that spread over sqrt(n) (n landings averaged into it). tail:
    the share of landings read far off (measured on the kernel fit: 1 in 5
    lies beyond two core spreads, up to 20-25 %: a magnet near the card's
    edge, a battle's field read against the other one's), a second Gaussian
    trel * |s| wide; 0: the core Gaussian alone."""
    if s is None:
        return -log(2.0 * UNKNOWN_SPAN * (abs(x) + 3.0 * sx) + 1e-9), 0.0
    sd = sqrt(sx * sx + (rel * s) * (rel * s) / n + (rel * x) * (rel * x)) + 1e-9
    z = (x - s) / sd
    ll = -0.5 * z * z - log(sd * 2.5066283)
    if tail > 0.0:
        st = sqrt(sd * sd + (trel * s) * (trel * s)) + 1e-9
        zt = (x - s) / st
        lt = -0.5 * zt * zt - log(st * 2.5066283)
        # log((1 - tail) e^ll + tail e^lt), without overflow
        if ll >= lt:
            ll = ll + log((1.0 - tail) + tail * exp(lt - ll))
        else:
            ll = lt + log(tail + (1.0 - tail) * exp(ll - lt))
    return ll, z


def posterior(x, sx, candidates, sigs, rel, others=(), other_prior=0.0, counts=None, tail=0.0, trel=0.25,
              second=None, priors=None):
    """Who among `candidates` has signature x (measured with standard error
    sx)? sigs: {id: learnt signed level}; rel, tail, trel: loglik's; counts:
    {id: landings averaged into its signature} (None: 1 each). Returns
    (best id, its posterior probability, its z score); with `second` (a
    list) it also receives [runner-up id or None, its posterior].
    Candidates have equal priors; `others` (ids the referee does not expect,
    which may land all the same when the referee's picture is wrong) share
    a prior of other_prior each, or priors[id] when given. A candidate never registered gets a flat
    likelihood over +-UNKNOWN_SPAN times |x|. (None, 0, 0) without
    candidates."""
    best = None
    bl = -1e30
    bz = 0.0
    nd = None
    nl = -1e30
    lls = []
    lp = log(other_prior) if other_prior > 0.0 else -1e30
    for group, prior in ((candidates, 0.0), (others, lp)):
        for b in group:
            ll, z = loglik(x, sx, sigs.get(b), rel, counts.get(b, 1) if counts else 1, tail, trel)
            if prior != 0.0 and priors and b in priors:
                ll += log(priors[b])
            else:
                ll += prior
            lls.append(ll)
            if ll > bl:
                nd, nl = best, bl
                best, bl, bz = b, ll, z
            elif ll > nl:
                nd, nl = b, ll
    if best is None:
        return None, 0.0, 0.0
    tot = 0.0
    for ll in lls:
        d = ll - bl
        if d > -50.0:
            tot += exp(d)
    if second is not None:
        second.append(nd)
        second.append(exp(nl - bl) / tot if nd is not None and nl - bl > -50.0 else 0.0)
    return best, 1.0 / tot, abs(bz)
