package warp

// RequestsPerLaunch is the number of requests (memory instructions with
// a lane on) that one launch makes for the access: counted when Exact,
// estimated from the requests sampled otherwise, and at the assumed
// sizes where the prediction assumed any. A kernel's cost per launch
// (rules/accesses.KernelCost) weighs each access's sectors by it.
func (p *Prediction) RequestsPerLaunch() float64 { return p.active }
