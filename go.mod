module github.com/skinview/skinview

go 1.26.8

require (
	github.com/fsnotify/fsnotify v1.8.0
	github.com/go-gl/gl v0.0.0-20231021071112-07e5d0ea2e71
	github.com/go-gl/glfw/v3.3/glfw v0.0.0-20250301202403-da16c1255728
	github.com/go-gl/mathgl v1.2.0
	github.com/qmuntal/gltf v0.29.0
	golang.org/x/image v0.47.0
)

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
