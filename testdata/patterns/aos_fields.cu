// An array of structs updated field by field: one finding for the array,
// the other fields as related locations.
struct Particle { float x, y, z, vx, vy, vz, mass; int id; };

__global__ void advance(Particle* p, float dt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    p[i].x += p[i].vx * dt; // want warning aos-field "load and store p\[i\].x: .*5 more accesses to fields of p"
    p[i].y += p[i].vy * dt;
    p[i].z += p[i].vz * dt;
}

void step(Particle* p, int n) { advance<<<(n + 255) / 256, 256>>>(p, 0.01f, n); }
