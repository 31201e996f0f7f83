// A hybrid schedule: one core file holding the dispatcher's firing table; the plan notes name the variable actors
// and why each is.
def out = new File(basedir, 'target/hybrid')
def core = new File(out, 'core_0.c').text
assert core.contains('cf_sched_graph graph') : 'a dispatched program'
assert core.contains('CF_SCHED_VARIABLE')
assert !new File(out, 'core_1.c').exists() : 'a dispatched program runs its table from one core file'
def log = new File(basedir, 'build.log').text
assert log.contains('schedule hybrid: the firings of Blur (marked with --variable), Histogram (cost spread 0.80 above 0.30)') : 'the variable actors and why'
assert !log.contains('Read (') : 'a spread below the threshold leaves an actor steady'
return true
