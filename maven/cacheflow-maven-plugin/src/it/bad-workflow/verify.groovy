// The build failed at the workflow's line 7 with the message cacheflow run-workflow prints.
def log = new File(basedir, 'build.log').text
assert log =~ /bad\.workflow:7:\d+: 'Fastest' is not a value of 'Memory strategy'; expected Baseline, Preesm, CopyOnWrite, NonTemporal, PreStore, HomeForward or Auto/
assert !new File(basedir, 'target/generated-sources/cacheflow').exists() : 'nothing generated'
assert !log.contains('at org.cacheflow.') : 'no stack trace'
return true
