/* cubin_v1.c - rewrite the headers of the CUDA device images embedded in a
 * program from the CUDA ELF ABI version 2 to version 1, in place.
 *
 * Why: CUDA 13's ptxas writes every cubin with the version-2 header
 * (OS/ABI 0x41, ABI version 8, the SM number in the second byte of
 * e_flags). LLVM 19's offload runtime reads only version 1 (OS/ABI 0x33,
 * ABI version 7, the SM number in the low byte, the 64-bit flag 0x400):
 * it refuses the image as "invalid CUDA addressing mode", counts no
 * device, and every target region of a clang 19 build falls back to the
 * host. LLVM's later releases read version 2. The header is all that
 * differs for sm_80 and sm_90, which both versions can name, and the
 * driver loads either; gpu_bundle.sh runs this on clang's bench, whose
 * rows are then validated on the GPU like every other row (on an H200,
 * each one was). Images for SM 100 and newer exist only in version 2 and
 * are left alone.
 *
 * usage: cubin_v1 FILE   prints one line per image rewritten; exit 0 when
 * at least one was (or all were version 1 already), 1 on an I/O error or
 * when the file holds no CUDA image at all.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    EHDR_SIZE = 64,            /* an ELF64 file header */
    EM_CUDA = 190,
    OSABI_CUDA_V1 = 0x33,
    OSABI_CUDA_V2 = 0x41,
    ABIVERSION_CUDA_V1 = 7,
    ABIVERSION_CUDA_V2 = 8,
    FLAG_TEXMODE_UNIFIED = 0x100, /* version 1's e_flags bits */
    FLAG_64BIT_ADDRESS = 0x400,
    SM_FIRST_V2_ONLY = 100,
};

static uint32_t get32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static unsigned get16(const unsigned char *p) { return p[0] | p[1] << 8; }
static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Is p the start of a little-endian ELF64 header for EM_CUDA? */
static int is_cuda_header(const unsigned char *p)
{
    return memcmp(p, "\177ELF\2\1\1", 7) == 0 && get16(p + 18) == EM_CUDA &&
           get16(p + 52) == EHDR_SIZE;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cubin_v1 FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        perror(argv[1]);
        return 1;
    }
    long size = ftell(f);
    unsigned char *buf = size > 0 ? malloc((size_t)size) : NULL;
    if (!buf || fseek(f, 0, SEEK_SET) != 0 || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "cubin_v1: cannot read %s\n", argv[1]);
        return 1;
    }
    fclose(f);
    int found = 0, rewritten = 0;
    for (long i = 0; i + EHDR_SIZE <= size; i++) {
        unsigned char *h = buf + i;
        if (h[0] != 0x7f || !is_cuda_header(h))
            continue;
        found++;
        uint32_t flags = get32(h + 48);
        if (h[7] != OSABI_CUDA_V2 || h[8] != ABIVERSION_CUDA_V2)
            continue;
        unsigned sm = (flags >> 8) & 0xff;
        if (sm >= SM_FIRST_V2_ONLY) {
            printf("cubin_v1: sm_%u image left as it is (version 2 only)\n", sm);
            continue;
        }
        h[7] = OSABI_CUDA_V1;
        h[8] = ABIVERSION_CUDA_V1;
        put32(h + 48, sm | FLAG_TEXMODE_UNIFIED | FLAG_64BIT_ADDRESS | sm << 16);
        printf("cubin_v1: sm_%u image at byte %ld: header rewritten to version 1\n", sm, i);
        rewritten++;
    }
    if (!found) {
        fprintf(stderr, "cubin_v1: %s holds no CUDA image\n", argv[1]);
        return 1;
    }
    if (rewritten) {
        f = fopen(argv[1], "r+b");
        if (!f || fwrite(buf, 1, (size_t)size, f) != (size_t)size || fclose(f) != 0) {
            fprintf(stderr, "cubin_v1: cannot write %s\n", argv[1]);
            return 1;
        }
    }
    free(buf);
    return 0;
}
