#!/bin/bash
# kernel-reports.sh LOG: print every kernel problem report in LOG (with a
# few lines of context) and exit 1; exit 0 when there is none.
# What counts: WARN, BUG, oops, KASAN/UBSAN, lockdep, kmemleak, debug-objects
# and list corruption, hung tasks, RCU stalls, soft lockups, refcount
# misuse, modules failing to resolve symbols, allocation failure warnings
# and OOM kills.
set -u
log=$1
[ -f "$log" ] || exit 0
pattern='WARNING: |BUG: |BUG [a-z_-]+ \(|kernel BUG at|Oops: |general protection fault|'
pattern+='KASAN: |UBSAN: |Kernel panic|'
pattern+='possible circular locking|possible recursive locking|inconsistent lock state|'
pattern+='suspicious RCU usage|DEBUG_LOCKS_WARN_ON|lock held when returning|'
pattern+='unreferenced object 0x|ODEBUG: |list_add corruption|list_del corruption|'
pattern+='blocked for more than [0-9]+ seconds|rcu_sched self-detected stall|rcu: INFO: |'
pattern+='soft lockup|hard LOCKUP|refcount_t: |Unknown symbol |disagrees about version of symbol|'
pattern+='vmalloc error: |page allocation failure: |invoked oom-killer|'
pattern+='------------\[ cut here \]------------'
if grep -Eq "$pattern" "$log"; then
	grep -E -A 12 "$pattern" "$log" | head -n 200
	exit 1
fi
exit 0
