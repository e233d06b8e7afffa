#pragma once
// A core header that includes a plan: what scripts/check-layers.py must refuse.
#include "hsparse/plans/spmv_plan.hpp"
