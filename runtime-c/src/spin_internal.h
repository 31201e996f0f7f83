/* Internal: the spin limit of waits that spin before they sleep (flags, barriers). */
#ifndef CF_INTERNAL_SPIN_H
#define CF_INTERNAL_SPIN_H
#include <stdint.h>

/* The CF_FLAG_SPIN environment variable's value when it holds a number in 1..UINT32_MAX, else
 * CF_FLAG_SPIN_DEFAULT (flag.h). */
uint32_t cf_spin_limit_from_environment(void);

#endif
