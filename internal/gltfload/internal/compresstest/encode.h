#ifndef SKVT_ENCODE_H
#define SKVT_ENCODE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
unsigned char *skvt_draco_encode(int npoints, const uint32_t *faces, int nfaces, int nattrs,
                                 const int *kinds, const int *dts, const int *comps,
                                 const int *norms, const int *qbits, const size_t *offs,
                                 const unsigned char *data, int speed, int sequential,
                                 int *ids, size_t *outlen);
#ifdef __cplusplus
}
#endif
#endif
