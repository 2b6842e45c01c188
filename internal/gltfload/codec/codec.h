/* The C face of the codec package's decoders (draco.cc). */
#ifndef SKV_CODEC_H
#define SKV_CODEC_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
void *skv_draco_decode(const unsigned char *data, size_t len, char *err, size_t errlen);
void skv_draco_free(void *m);
uint32_t skv_draco_num_points(void *m);
uint32_t skv_draco_num_faces(void *m);
int skv_draco_indices(void *m, unsigned char *out, size_t count, int ct);
int skv_draco_attribute(void *m, int unique_id, int ct, int comps, int normalized,
                        unsigned char *out, size_t outlen, char *err, size_t errlen);
#ifdef __cplusplus
}
#endif
#endif
