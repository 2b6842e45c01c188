package export

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os/exec"
	"strconv"
)

// Video pipes frames as PNGs into ffmpeg, which encodes them to a video
// file (H.264 in yuv420p, which every player reads). Start it with
// NewVideo, Add frames, then Close.
type Video struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr bytes.Buffer
	path   string
}

// ErrNoFFmpeg says that ffmpeg is not installed, so there is no video.
var ErrNoFFmpeg = errors.New("export: ffmpeg is not installed (a Debian package: apt-get install ffmpeg); record a .gif or a folder of PNGs instead")

// NewVideo starts ffmpeg writing path at fps frames per second.
func NewVideo(path string, fps float64) (*Video, error) {
	bin, err := exec.LookPath("ffmpeg")
	if err != nil {
		return nil, ErrNoFFmpeg
	}
	v := &Video{path: path}
	v.cmd = exec.Command(bin, "-loglevel", "error", "-y", "-f", "image2pipe", "-framerate", strconv.FormatFloat(fps, 'f', -1, 64),
		"-i", "-", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", path)
	v.cmd.Stderr = &v.stderr
	if v.stdin, err = v.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := v.cmd.Start(); err != nil {
		return nil, fmt.Errorf("export: starting ffmpeg: %w", err)
	}
	return v, nil
}

// Add sends one frame.
func (v *Video) Add(img image.Image) error {
	if err := png.Encode(v.stdin, img); err != nil {
		return fmt.Errorf("export: ffmpeg stopped taking frames for %s: %w %s", v.path, err, v.stderr.String())
	}
	return nil
}

// Close ends the video and waits for ffmpeg.
func (v *Video) Close() error {
	v.stdin.Close()
	if err := v.cmd.Wait(); err != nil {
		return fmt.Errorf("export: ffmpeg could not write %s: %v %s", v.path, err, bytes.TrimSpace(v.stderr.Bytes()))
	}
	return nil
}
